/**
 * A long digest or transaction hash as its first 10 and last 6 characters (the whole value in the
 * title and for screen readers), optionally a link, with a button that copies the whole value.
 */
import { CopyButton } from './copy-button.js';
import { shortHash } from './format.js';

export function ShortHash(props: {
  value: string;
  /** What the value is ("Merkle root", "transaction on chain 31337"): the copy button's label names it. */
  label: string;
  href?: string | undefined;
  testId?: string;
}) {
  const shown = (
    <>
      <span aria-hidden="true">{shortHash(props.value)}</span>
      <span className="visually-hidden">{props.value}</span>
    </>
  );
  return (
    <span className="short-hash" data-testid={props.testId} data-value={props.value}>
      {props.href !== undefined ? (
        <a
          href={props.href}
          target="_blank"
          rel="noopener noreferrer"
          title={`${props.label}: ${props.value}`}
        >
          <code>{shown}</code>
        </a>
      ) : (
        <code title={`${props.label}: ${props.value}`}>{shown}</code>
      )}
      <CopyButton value={props.value} label={props.label} testId="copy-hash" />
    </span>
  );
}
