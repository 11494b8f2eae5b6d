-- Anchoring rounds (docs/anchoring.md, "Rounds") and small persistent settings.

-- One row per anchoring round: an RFC 6962 tree over the document roots (and the latest log root)
-- waiting in that round; its root is written on chain by one transaction.
-- BUILT: members fixed, nothing sent. SENT: tx_hash stored, receipt not seen yet. CONFIRMED: receipt
-- seen (block, timestamp). The tx hash is stored before waiting for the receipt, so a restart
-- reconciles instead of sending a second transaction for the same root.
CREATE TABLE anchor_rounds (
  id text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('BUILT', 'SENT', 'CONFIRMED')),
  provider text NOT NULL,
  chain_id integer NOT NULL,
  contract text NOT NULL,
  batch_root text NOT NULL,
  size integer NOT NULL CHECK (size >= 1),
  log_size integer,
  log_root text,
  tx_hash text,
  -- The signed raw transaction, stored with its hash before broadcast, so a restart can rebroadcast it.
  raw_tx text,
  nonce integer,
  block_number bigint,
  block_timestamp bigint,
  gas_used bigint,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  confirmed_at timestamptz,
  UNIQUE (chain_id, contract, batch_root)
);
CREATE INDEX anchor_rounds_status ON anchor_rounds (status);

-- The leaves of a round, in order: document roots, then the log root. `proof` is the RFC 6962
-- inclusion path of the leaf in the round's tree (hex, leaf to root).
CREATE TABLE anchor_members (
  round_id text NOT NULL REFERENCES anchor_rounds (id) ON DELETE CASCADE,
  leaf_index integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('document', 'log')),
  document_id text,
  root text NOT NULL,
  proof jsonb NOT NULL,
  PRIMARY KEY (round_id, leaf_index)
);
CREATE INDEX anchor_members_document ON anchor_members (document_id);

ALTER TABLE documents ADD COLUMN anchor_round_id text;
ALTER TABLE documents ADD CONSTRAINT documents_anchor_state
  CHECK (anchor_state IN ('PENDING_ANCHOR', 'ANCHORING', 'ANCHORED'));

CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
