// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

/// @title DocumentRegistry
/// @notice Saksi's on-chain anchor (docs/anchoring.md). Each anchoring round writes one RFC 6962 root
///         over the document roots (and the latest log root) of that round. A root is written once;
///         its block timestamp proves the documents existed no later than that block.
/// @dev    `verifyInclusion` checks an RFC 9162 §2.1.3.2 inclusion proof with the SHA-256 precompile
///         (address 0x02), so anyone can check a document's membership in an anchored batch on chain.
contract DocumentRegistry {
    struct Record {
        uint64 timestamp;
        string id;
    }

    mapping(bytes32 => Record) private records;
    uint256 private rootCount;

    /// @notice The root was anchored before; roots are immutable and written once.
    error RootAlreadyAnchored(bytes32 root, uint256 timestamp);
    /// @notice The zero hash is not a root.
    error EmptyRoot();
    /// @notice The SHA-256 precompile call failed.
    error HashFailed();

    event RootAnchored(bytes32 indexed root, string id, uint256 timestamp, address indexed registeredBy);

    /// @notice Anchors `root` with a free-form `id` (Saksi writes the round id).
    function anchorRoot(bytes32 root, string calldata id) external {
        if (root == bytes32(0)) revert EmptyRoot();
        Record storage existing = records[root];
        if (existing.timestamp != 0) revert RootAlreadyAnchored(root, existing.timestamp);
        records[root] = Record(uint64(block.timestamp), id);
        rootCount += 1;
        emit RootAnchored(root, id, block.timestamp, msg.sender);
    }

    /// @notice Whether `root` was anchored, when (block timestamp, unix seconds) and under which id.
    function verifyRoot(bytes32 root) external view returns (bool exists, uint256 timestamp, string memory id) {
        Record storage record = records[root];
        return (record.timestamp != 0, record.timestamp, record.id);
    }

    /// @notice The number of distinct roots anchored.
    function getRootCount() external view returns (uint256) {
        return rootCount;
    }

    /// @notice RFC 6962 leaf hash SHA-256(0x00 || leafInput) of a 32-byte leaf input (a document root).
    function leafHash(bytes32 leafInput) public view returns (bytes32) {
        return sha256Precompile(abi.encodePacked(bytes1(0x00), leafInput));
    }

    /// @notice Checks that `leaf` (a leaf hash) sits at `index` in the RFC 6962 tree of `size` leaves
    ///         whose root is `root`, given the audit path `proof` (leaf to root). RFC 9162 §2.1.3.2.
    function verifyInclusion(bytes32 leaf, uint256 index, uint256 size, bytes32[] calldata proof, bytes32 root)
        public
        view
        returns (bool)
    {
        if (index >= size) return false;
        uint256 fn = index;
        uint256 sn = size - 1;
        bytes32 r = leaf;
        for (uint256 i = 0; i < proof.length; i++) {
            if (sn == 0) return false;
            if (fn & 1 == 1 || fn == sn) {
                r = sha256Precompile(abi.encodePacked(bytes1(0x01), proof[i], r));
                if (fn & 1 == 0) {
                    while (fn & 1 == 0 && fn != 0) {
                        fn >>= 1;
                        sn >>= 1;
                    }
                }
            } else {
                r = sha256Precompile(abi.encodePacked(bytes1(0x01), r, proof[i]));
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && r == root;
    }

    /// @notice One call for a verifier: is `documentRoot` in the batch `batchRoot`, and is that batch
    ///         anchored here (with its timestamp)?
    function verifyAnchoredDocument(
        bytes32 documentRoot,
        uint256 index,
        uint256 size,
        bytes32[] calldata proof,
        bytes32 batchRoot
    ) external view returns (bool included, bool anchored, uint256 timestamp) {
        included = verifyInclusion(leafHash(documentRoot), index, size, proof, batchRoot);
        Record storage record = records[batchRoot];
        return (included, record.timestamp != 0, record.timestamp);
    }

    function sha256Precompile(bytes memory data) private view returns (bytes32) {
        (bool ok, bytes memory out) = address(0x02).staticcall(data);
        if (!ok || out.length != 32) revert HashFailed();
        return bytes32(out);
    }
}
