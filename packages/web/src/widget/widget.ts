/**
 * The embeddable docs widget, plain DOM so it stays small:
 *
 *   <script src="https://saksi.example/widget.js" data-collection="docs" async></script>
 *
 * Optional `data-lang="id|en"` and `data-position="bottom-right|bottom-left"`. The server origin is
 * the script's own. It adds an "Ask" button and a panel in an open shadow root (its styles stay
 * inside), streams answers from `POST <server>/api/v1/chat` (SSE) and shows each question and its
 * answer as messages. Selecting text on the page shows an "Ask about this" button that asks in
 * selection mode. Untrusted text only ever goes in through `textContent`.
 *
 * Once the bundle arrives the answer is shown as the chat shows it (sources.ts `answerBlocks`): only
 * the composer's markers are markers, document text is literal, quoted code keeps its lines, links go
 * only to the cited pages; each "[n]" links to its source in the panel and each source to its page.
 * Then the widget checks the answer itself: it loads its verifier (`/widget-verify.js`, verifier.ts)
 * from the same server and runs `verifyBundle` in the reader's browser with the keys pinned there on
 * first use. The badge shows what that check found — never the server's own flags — and links (to
 * the cited pages) become live only when the answer is authentic.
 */
import { type ClientErrorCode, chatStream, SaksiApiError } from '@saksi/client';
import type { Block, Inline } from '../markdown.js';
import { answerBlocks, codeChunks, markdownDocuments } from '../sources.js';
import {
  type CitedSources,
  chatBody,
  citedSources,
  cleanSelection,
  paragraphs,
  readOptions,
  sourcesOf,
  verifyUrl,
  type WidgetLang,
  type WidgetOptions,
  type WidgetSource,
} from './core.js';
import { feedbackNode } from './feedback.js';
import { loadVerifier } from './loader.js';
import type { PinStorage } from './pinning.js';
import { STRINGS, type WidgetStrings } from './strings.js';
import { WIDGET_CSS } from './styles.js';
import type { WidgetVerdict } from './verdict.js';

/** Shortest selection that offers the "Ask about this" button (characters). */
const MIN_SELECTION = 3;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function applyStyles(shadow: ShadowRoot): void {
  // A constructed stylesheet is not an inline <style>, so a page CSP without 'unsafe-inline' allows it.
  if (
    'adoptedStyleSheets' in shadow &&
    typeof CSSStyleSheet === 'function' &&
    'replaceSync' in CSSStyleSheet.prototype
  ) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
    shadow.adoptedStyleSheets = [sheet];
  } else shadow.append(el('style', {}, WIDGET_CSS));
}

/** The page's localStorage, or undefined where the browser refuses it. */
function pageStorage(): PinStorage | undefined {
  try {
    return window.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export function mountWidget(options: WidgetOptions): HTMLElement {
  const t = STRINGS[options.lang];
  const host = el('div', { 'data-saksi-widget': '' });
  const shadow = host.attachShadow({ mode: 'open' });
  applyStyles(shadow);
  const root = el('div', {
    class: `root ${options.position === 'bottom-left' ? 'left' : 'right'}`,
    lang: options.lang,
  });

  const ask = el(
    'button',
    {
      type: 'button',
      class: 'ask',
      'data-testid': 'widget-ask',
      'aria-expanded': 'false',
      'aria-controls': 'saksi-panel',
      'aria-haspopup': 'dialog',
      title: t.askLabel,
    },
    t.ask,
  );
  const selectionAsk = el(
    'button',
    { type: 'button', class: 'selection-ask', 'data-testid': 'widget-selection-ask' },
    t.askSelection,
  );
  selectionAsk.hidden = true;

  const panel = el('div', {
    id: 'saksi-panel',
    class: 'panel',
    role: 'dialog',
    'aria-labelledby': 'saksi-title',
    'data-testid': 'widget-panel',
  });
  panel.hidden = true;
  const header = el('div', { class: 'head' });
  const close = el(
    'button',
    { type: 'button', class: 'close', 'aria-label': t.close, 'data-testid': 'widget-close' },
    '×',
  );
  header.append(el('h2', { id: 'saksi-title' }, t.title), close);

  const body = el('div', { class: 'body', 'data-testid': 'widget-body' });
  const log = el('div', { class: 'log', role: 'log', 'data-testid': 'widget-log' });
  body.append(log);

  const quoteBox = el('div', { class: 'pending-quote', 'data-testid': 'widget-quote-box' });
  const quote = el('blockquote', { 'data-testid': 'widget-quote' });
  quoteBox.append(el('p', { class: 'quote-label' }, t.quoted), quote);
  quoteBox.hidden = true;

  const form = el('form');
  const input = el('textarea', {
    id: 'saksi-input',
    'data-testid': 'widget-input',
    rows: '2',
    placeholder: t.placeholder,
    maxlength: '4000',
  });
  const send = el('button', { type: 'submit', class: 'send', 'data-testid': 'widget-send' }, t.send);
  form.append(el('label', { for: 'saksi-input', class: 'visually-hidden' }, t.input), input, send);
  panel.append(header, body, quoteBox, form, el('p', { class: 'footer' }, t.poweredBy));
  root.append(ask, selectionAsk, panel);
  shadow.append(root);

  let running = false;
  let sessionId: string | undefined;
  let selection: string | undefined;
  let pendingSelection = '';
  let turns = 0;

  const updateSend = () => {
    send.disabled = running || input.value.trim() === '';
  };
  updateSend();

  const open = () => {
    panel.hidden = false;
    ask.setAttribute('aria-expanded', 'true');
    selectionAsk.hidden = true;
    input.focus();
  };
  const closePanel = () => {
    panel.hidden = true;
    ask.setAttribute('aria-expanded', 'false');
    ask.focus();
  };

  ask.addEventListener('click', () => {
    if (!panel.hidden) return closePanel();
    selection = undefined;
    quoteBox.hidden = true;
    open();
  });
  close.addEventListener('click', closePanel);
  shadow.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape' && !panel.hidden) {
      event.stopPropagation();
      closePanel();
    }
  });
  input.addEventListener('input', updateSend);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });

  // Selected-text mode: a small button near the selection on the host page.
  selectionAsk.addEventListener('mousedown', (event) => event.preventDefault());
  selectionAsk.addEventListener('click', () => {
    const text = cleanSelection(pendingSelection);
    if (text === '') return;
    selection = text;
    quote.textContent = text;
    quoteBox.hidden = false;
    input.value = t.selectionQuestion;
    updateSend();
    open();
    input.select();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const placeSelectionButton = () => {
    const current = document.getSelection();
    const text = current?.toString() ?? '';
    const inside =
      current?.anchorNode != null && (current.anchorNode === host || host.contains(current.anchorNode));
    if (
      !current ||
      current.isCollapsed ||
      current.rangeCount === 0 ||
      inside ||
      text.trim().length < MIN_SELECTION
    ) {
      if (shadow.activeElement !== selectionAsk) selectionAsk.hidden = true;
      return;
    }
    pendingSelection = text;
    const rect = current.getRangeAt(0).getBoundingClientRect();
    const top = Math.max(4, Math.min(window.innerHeight - 40, rect.bottom + 6));
    const left = Math.max(4, Math.min(window.innerWidth - 160, rect.left));
    // CSSOM properties, not a style attribute: allowed by a page CSP without 'unsafe-inline'.
    selectionAsk.style.top = `${top}px`;
    selectionAsk.style.left = `${left}px`;
    selectionAsk.hidden = false;
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(placeSelectionButton, 120);
  };
  document.addEventListener('selectionchange', schedule);
  window.addEventListener('scroll', schedule, { passive: true });

  /** Scrolls the panel's body (never the host page) so `element` is at its top. */
  const scrollTo = (element: HTMLElement) => {
    body.scrollTop = Math.max(0, element.offsetTop - 8);
  };

  async function run(): Promise<void> {
    const question = input.value.trim();
    if (question === '' || running) return;
    running = true;
    const quoted = selection;
    input.value = '';
    selection = undefined;
    quoteBox.hidden = true;
    updateSend();
    turns++;
    const turn = new Turn(t, `saksi-t${turns}`, question, quoted, options, scrollTo);
    log.append(turn.question, turn.message);
    scrollTo(turn.question);
    turn.setStatus(t.thinking, 'streaming');
    const request = chatBody(options, question, {
      // The page the reader is on: its passages are searched first (docs/api.md, "page_url").
      pageUrl: location.href,
      ...(quoted !== undefined ? { selection: quoted } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
    });
    let text = '';
    let results: unknown[] = [];
    try {
      const events = chatStream({ baseUrl: options.server, credentials: 'omit' }, request);
      for await (const event of events) {
        if (event.type === 'session') sessionId = event.session_id;
        else if (event.type === 'retrieval') results = event.results;
        else if (event.type === 'delta') {
          text += event.text;
          turn.showPlain(text);
        } else if (event.type === 'bundle') {
          turn.showCertified(text, event.bundle, results);
          void turn.check();
        } else if (event.type === 'done') {
          const href = verifyUrl(options.server, event.certificate_id);
          if (href !== undefined) turn.showProofLink(href);
          if (event.certificate_id !== '')
            turn.message.append(feedbackNode(t, options.server, event.certificate_id));
          if (text.trim() === '') turn.showPlain(t.notFound);
        }
      }
      turn.finish();
    } catch (error) {
      turn.setStatus(failureText(error, t), 'error');
    } finally {
      running = false;
      updateSend();
    }
  }

  return host;
}

/**
 * The codes the client assigns itself (no reply, or one it could not read). A Set of strings, read with
 * `SaksiApiError.code`, which keeps any code a server sends: the widget may be embedded against a newer one.
 */
const CLIENT_CODES: ReadonlySet<string> = new Set<ClientErrorCode>([
  'NETWORK_ERROR',
  'BAD_RESPONSE',
  'TIMEOUT',
  'STREAM_ENDED',
  'ABORTED',
]);

/**
 * What a failed answer says: the server's refusal (an error reply, `serverError: <its message>`, or
 * its status when it sent no Saksi error; an `error` event in the stream, its own message), else the
 * network sentence (no reply, a stream that broke off or could not be read).
 */
function failureText(error: unknown, t: WidgetStrings): string {
  if (!(error instanceof SaksiApiError)) return t.networkError;
  if (error.status >= 400)
    return `${t.serverError}: ${error.code === 'BAD_RESPONSE' ? error.status : error.message}`;
  return error.status > 0 && !CLIENT_CODES.has(error.code) ? error.message || t.serverError : t.networkError;
}

/** One question and its answer in the panel. */
class Turn {
  readonly question: HTMLElement;
  readonly message: HTMLElement;
  private readonly badge: HTMLElement;
  private readonly answer: HTMLElement;
  private readonly sources: HTMLElement;
  private readonly sourceList: HTMLElement;
  private readonly sourcesHeading: HTMLElement;
  private readonly proofLink: HTMLAnchorElement;
  private bundle: unknown;
  private cited: CitedSources = { sources: [], targets: new Map() };

  constructor(
    private readonly t: WidgetStrings,
    private readonly id: string,
    private readonly asked: string,
    quoted: string | undefined,
    private readonly options: WidgetOptions,
    private readonly scrollTo: (element: HTMLElement) => void,
  ) {
    this.question = el('div', { class: 'msg user', 'data-testid': 'widget-question' });
    this.question.append(el('span', { class: 'visually-hidden' }, `${t.you}: `));
    if (quoted !== undefined) this.question.append(el('blockquote', { class: 'asked-quote' }, quoted));
    this.question.append(el('p', {}, asked));

    this.message = el('div', { class: 'msg assistant', 'data-testid': 'widget-message' });
    this.badge = el('div', { class: 'badge', role: 'status', 'data-testid': 'widget-badge' });
    this.badge.hidden = true;
    this.answer = el('div', { class: 'answer', 'data-testid': 'widget-answer' });
    this.sourcesHeading = el('h3', { id: `${id}-sources` }, t.sources);
    this.sourceList = el('ul');
    // Not a landmark: every answer has its sources, and landmarks should be unique.
    this.sources = el('div', {
      class: 'sources',
      'data-testid': 'widget-sources',
      'aria-labelledby': `${id}-sources`,
    });
    this.sources.append(this.sourcesHeading, this.sourceList);
    this.sources.hidden = true;
    this.proofLink = el(
      'a',
      { class: 'proof', 'data-testid': 'widget-verify-link', target: '_blank', rel: 'noopener noreferrer' },
      t.verify,
    );
    this.proofLink.hidden = true;
    this.message.append(
      el('span', { class: 'visually-hidden' }, `${t.saksi}: `),
      this.badge,
      this.answer,
      this.sources,
      this.proofLink,
    );
  }

  setStatus(message: string, state: 'streaming' | 'error'): void {
    this.answer.dataset['state'] = state;
    this.answer.setAttribute('aria-busy', state === 'streaming' ? 'true' : 'false');
    this.answer.replaceChildren(
      el(
        'p',
        { class: state === 'error' ? 'error' : 'status', ...(state === 'error' ? { role: 'alert' } : {}) },
        message,
      ),
    );
    if (state === 'error') {
      this.badge.hidden = true;
      this.sources.hidden = true;
      this.proofLink.hidden = true;
    }
  }

  /** Streamed text, all of it plain text: no marker, no link. */
  showPlain(text: string): void {
    this.answer.replaceChildren(...paragraphs(text).map((part) => el('p', {}, part)));
  }

  /** The certified answer and its cited sources (the related passages when it cites none). */
  showCertified(text: string, bundle: unknown, results: readonly unknown[]): void {
    this.bundle = bundle;
    this.cited = citedSources(bundle);
    const code = codeChunks(results);
    if (text.trim() !== '')
      this.answer.replaceChildren(
        ...blockNodes(
          answerBlocks(text, bundle as Parameters<typeof answerBlocks>[1], markdownDocuments(results), code),
          (n) => this.marker(n),
        ),
      );
    if (this.cited.sources.length > 0) {
      this.sourcesHeading.textContent = this.t.sources;
      this.showSources(this.cited.sources, code);
    } else {
      this.sourcesHeading.textContent = this.t.related;
      this.showSources(sourcesOf({ results }), code);
    }
  }

  showProofLink(href: string): void {
    this.proofLink.href = href;
    this.proofLink.hidden = false;
  }

  finish(): void {
    this.answer.dataset['state'] = 'done';
    this.answer.setAttribute('aria-busy', 'false');
  }

  /** Checks the answer in this browser and shows what the check found. */
  async check(trustPublished = false): Promise<void> {
    this.renderBadge(undefined);
    let verdict: WidgetVerdict;
    try {
      const verifier = await loadVerifier(this.options.server);
      verdict = await verifier.verifyAnswer({
        server: this.options.server,
        bundle: this.bundle,
        question: this.asked,
        lang: this.options.lang,
        ...withStorage(pageStorage()),
        trustPublished,
      });
    } catch {
      verdict = {
        state: 'unavailable',
        authentic: null,
        supported: 0,
        claims: 0,
        relevance: 'unknown',
        pin: 'unavailable',
        problems: [this.t.verifierMissing],
      };
    }
    this.renderBadge(verdict);
    // Related passages are not an answer: their sources are headed as related, not as its sources.
    if (verdict.state === 'related') this.sourcesHeading.textContent = this.t.related;
    // Links to the cited pages go live only for an authentic answer.
    if (verdict.authentic === true)
      this.message.querySelectorAll<HTMLAnchorElement>('a[data-href]').forEach((link) => {
        link.href = link.dataset['href'] ?? '';
      });
  }

  /** A "[n]" marker: a link to its source in the panel when the answer cites one for it. */
  private marker(n: number): Node {
    const target = this.cited.targets.get(n);
    const sup = el('sup', { class: 'cite', 'data-cite': String(n) });
    if (target === undefined) {
      sup.textContent = `[${n}]`;
      return sup;
    }
    const link = el(
      'a',
      { href: `#${this.id}-s${target}`, 'aria-label': this.t.sourceNumber(n), 'data-testid': 'widget-cite' },
      `[${n}]`,
    );
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const entry = this.sourceList.children[target];
      if (!(entry instanceof HTMLElement)) return;
      this.scrollTo(entry);
      entry.focus({ preventScroll: true });
    });
    sup.append(link);
    return sup;
  }

  private showSources(items: readonly (WidgetSource & { markers?: number[] })[], code: Set<string>): void {
    this.sourceList.replaceChildren(
      ...items.map((source, index) => {
        const item = el('li', {
          id: `${this.id}-s${index}`,
          tabindex: '-1',
          'data-testid': 'widget-source',
          'data-chunk-id': source.chunkId,
        });
        const head = el('p', { class: 'source-head' });
        if (source.markers !== undefined && source.markers.length > 0)
          head.append(el('span', { class: 'marker' }, source.markers.map((n) => `[${n}]`).join('')), ' ');
        const title = el('strong', {}, source.title);
        if (source.url !== undefined) {
          // The page and heading on the docs site, in a new tab without opener or referrer; live once
          // the answer is authentic.
          const link = el('a', {
            'data-href': source.url,
            target: '_blank',
            rel: 'noopener noreferrer',
            'data-testid': 'widget-source-link',
          });
          link.append(title, el('span', { class: 'visually-hidden' }, ` ${this.t.newTab}`));
          head.append(link);
        } else head.append(title);
        item.append(head);
        if (source.snippet !== '')
          item.append(
            // A long quote scrolls inside its box; focusable so the keyboard can scroll it too.
            code.has(source.chunkId)
              ? el('pre', { class: 'snippet', tabindex: '0' }, source.snippet)
              : el('blockquote', { class: 'snippet', tabindex: '0' }, source.snippet),
          );
        return item;
      }),
    );
    this.sources.hidden = items.length === 0;
  }

  /** The badge: "checking" while `verdict` is undefined. */
  private renderBadge(verdict: WidgetVerdict | undefined): void {
    const t = this.t;
    const badge = this.badge;
    badge.hidden = false;
    badge.replaceChildren();
    this.message.dataset['verdict'] = verdict?.state ?? 'checking';
    badge.dataset['state'] = verdict?.state ?? 'checking';
    if (verdict === undefined) {
      badge.append(el('p', { class: 'badge-title' }, t.checking));
      return;
    }
    badge.dataset['authentic'] = String(verdict.authentic);
    badge.dataset['supported'] = String(verdict.supported);
    badge.dataset['claims'] = String(verdict.claims);
    badge.dataset['relevance'] = verdict.relevance;
    badge.dataset['pin'] = verdict.pin;
    const titles: Record<WidgetVerdict['state'], string> = {
      // An answer check confirmed it (v1.2); an older certificate has none to name.
      verified: verdict.check !== undefined ? t.answers : t.verified,
      related: t.relatedTitle,
      failed: t.failed,
      refused: t.refused,
      'not-answered': t.notAnswered,
      'key-changed': t.keyChanged,
      unavailable: t.unavailable,
    };
    badge.append(el('p', { class: 'badge-title' }, titles[verdict.state]));
    if (verdict.reason !== undefined)
      badge.append(el('p', { class: 'badge-reason', 'data-testid': 'widget-reason' }, verdict.reason));
    if (verdict.authentic !== null) {
      const chips = el('ul', { class: 'chips' });
      // `warn`: not a failure and never a tick (related passages are not a confirmed answer).
      const chip = (ok: boolean | 'warn' | undefined, text: string, name: string) =>
        el(
          'li',
          {
            class: 'chip',
            'data-ok': ok === undefined ? 'unknown' : String(ok),
            'data-testid': `widget-${name}`,
          },
          `${ok === undefined ? '–' : ok === 'warn' ? '!' : ok ? '✓' : '✗'} ${text}`,
        );
      chips.append(chip(verdict.authentic, verdict.authentic ? t.authentic : t.altered, 'authentic'));
      if (verdict.authentic && verdict.state === 'related')
        chips.append(relevanceChip(verdict, t, this.options.lang, chip));
      else if (verdict.authentic && verdict.claims > 0) {
        chips.append(
          chip(
            verdict.supported === verdict.claims,
            t.supported(verdict.supported, verdict.claims),
            'supported',
          ),
          relevanceChip(verdict, t, this.options.lang, chip),
        );
      }
      badge.append(chips);
    }
    if (verdict.problems.length > 0) {
      if (verdict.state === 'failed') badge.append(el('p', { class: 'what-failed' }, t.whatFailed));
      const list = el('ul', { class: 'problems', 'data-testid': 'widget-problems' });
      list.append(...verdict.problems.map((problem) => el('li', {}, problem)));
      badge.append(list);
    }
    if (verdict.state === 'key-changed') {
      badge.append(el('p', {}, t.keyChangedText));
      if (verdict.fingerprint !== undefined)
        badge.append(el('p', { class: 'key' }, t.keyPinned(verdict.fingerprint)));
      if (verdict.published !== undefined)
        badge.append(el('p', { class: 'key' }, t.keyPublished(verdict.published)));
      const trust = el(
        'button',
        { type: 'button', class: 'trust', 'data-testid': 'widget-trust-key' },
        t.trustNewKey,
      );
      trust.addEventListener('click', () => void this.check(true));
      badge.append(trust);
      return;
    }
    if (verdict.authentic === null) return;
    const details = el('details');
    details.append(el('summary', {}, t.details));
    for (const line of [t.explainAuthentic, t.explainSupported, t.explainRelevant, t.explainSkipped])
      details.append(el('p', {}, line));
    if (verdict.fingerprint !== undefined)
      details.append(
        el(
          'p',
          { class: 'key', 'data-testid': 'widget-key' },
          verdict.pin === 'first-use' ? t.keyFirstUse(verdict.fingerprint) : t.keyPinned(verdict.fingerprint),
        ),
      );
    badge.append(details);
  }
}

/** The third chip: the answer check (v1.2), else the older relevance; never a tick for related passages. */
function relevanceChip(
  verdict: WidgetVerdict,
  t: WidgetStrings,
  lang: WidgetLang,
  chip: (ok: boolean | 'warn' | undefined, text: string, name: string) => HTMLElement,
): HTMLElement {
  if (verdict.state === 'related') return chip('warn', t.notConfirmed, 'relevance');
  const check = verdict.check;
  if (check !== undefined && verdict.relevance === 'relevant') {
    // The language's decimal separator: 0,91 and 2,5 % in Indonesian.
    const decimal = (text: string) => (lang === 'id' ? text.replace('.', ',') : text);
    const number = (value: number) => (Number.isFinite(value) ? decimal(value.toFixed(2)) : '?');
    const risk = decimal(`${Math.round(check.alpha * 10_000) / 100} %`);
    return chip(true, t.answersChip(number(check.score), number(check.threshold), risk), 'relevance');
  }
  return chip(
    verdict.relevance === 'unknown' ? undefined : verdict.relevance === 'relevant',
    verdict.relevance === 'relevant'
      ? t.relevant
      : verdict.relevance === 'not_relevant'
        ? t.notRelevant
        : t.relevanceUnknown,
    'relevance',
  );
}

function withStorage(storage: PinStorage | undefined): { storage?: PinStorage } {
  return storage !== undefined ? { storage } : {};
}

/** An answer's blocks as DOM nodes: text only through text nodes, links only as the blocks allow. */
function blockNodes(blocks: readonly Block[], marker: (n: number) => Node): HTMLElement[] {
  const inline = (nodes: readonly Inline[]): Node[] => nodes.map((node) => inlineNode(node, inline, marker));
  return blocks.map((block) => {
    if (block.kind === 'paragraph') {
      const paragraph = el('p');
      paragraph.append(...inline(block.children));
      return paragraph;
    }
    if (block.kind === 'code') {
      // Focusable: a code line wider than the panel scrolls sideways, also from the keyboard.
      const pre = el('pre', { class: 'code', tabindex: '0', 'data-testid': 'widget-code' });
      pre.append(el('code', {}, block.text));
      return pre;
    }
    const list = el(block.ordered ? 'ol' : 'ul');
    for (const item of block.items) {
      const entry = el('li');
      entry.append(...inline(item));
      list.append(entry);
    }
    return list;
  });
}

function inlineNode(
  node: Inline,
  inline: (nodes: readonly Inline[]) => Node[],
  marker: (n: number) => Node,
): Node {
  switch (node.kind) {
    case 'text':
      return document.createTextNode(node.text);
    case 'break':
      return el('br');
    case 'code':
      return el('code', {}, node.text);
    case 'cite':
      return marker(node.n);
    case 'bold': {
      const strong = el('strong');
      strong.append(...inline(node.children));
      return strong;
    }
  }
  // A link to a cited page: its address is kept aside until the answer is found authentic.
  const link = el('a', { 'data-href': node.href, target: '_blank', rel: 'noopener noreferrer nofollow' });
  link.append(...inline(node.children));
  return link;
}

function currentScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement) return current;
  const scripts = document.querySelectorAll<HTMLScriptElement>('script[src][data-collection]');
  return Array.from(scripts).find((script) => /\/widget\.js(?:[?#]|$)/.test(script.src)) ?? null;
}

function start(): void {
  const flag = window as unknown as { __saksiWidget?: boolean };
  if (flag.__saksiWidget) return;
  const script = currentScript();
  if (script === null) return;
  let options: WidgetOptions;
  try {
    options = readOptions(script, document.documentElement.lang, navigator.language);
  } catch (error) {
    console.warn(error instanceof Error ? error.message : String(error));
    return;
  }
  flag.__saksiWidget = true;
  const attach = () => document.body.append(mountWidget(options));
  if (document.body) attach();
  else document.addEventListener('DOMContentLoaded', attach, { once: true });
}

start();
