/**
 * The embeddable docs widget (issue 5, item 6), plain DOM so it stays small:
 *
 *   <script src="https://saksi.example/widget.js" data-collection="docs" async></script>
 *
 * Optional `data-lang="id|en"` and `data-position="bottom-right|bottom-left"`. The server origin is
 * the script's own. It adds an "Ask" button and a panel in an open shadow root (its styles stay
 * inside), streams answers from `POST <server>/api/v1/chat` (SSE) and shows the sources, the
 * verified / blocked / total claim summary and a link to the proof page. Selecting text on the page
 * shows an "Ask about this" button that asks in selection mode. Untrusted text only ever goes in
 * through `textContent`. Once the bundle arrives the answer is shown as the chat shows it
 * (sources.ts `answerBlocks`): only the composer's markers are markers, document text is literal, and
 * links go only to the cited pages.
 */
import type { Bundle } from '@saksi/proof';
import type { Block, Inline } from '../markdown.js';
import { answerBlocks, markdownDocuments } from '../sources.js';
import { eventJson, readSse } from '../sse.js';
import {
  chatBody,
  cleanSelection,
  paragraphs,
  readOptions,
  type Summary,
  sourcesOf,
  summarize,
  verifyUrl,
  WidgetError,
  type WidgetOptions,
  type WidgetSource,
} from './core.js';
import { STRINGS } from './strings.js';
import { WIDGET_CSS } from './styles.js';

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

  const body = el('div', { class: 'body' });
  const quoteBox = el('div', { 'data-testid': 'widget-quote-box' });
  const quote = el('blockquote', { 'data-testid': 'widget-quote' });
  quoteBox.append(el('p', { class: 'quote-label' }, t.quoted), quote);
  quoteBox.hidden = true;
  const answer = el('div', { class: 'answer', 'data-testid': 'widget-answer', 'aria-live': 'polite' });
  const summary = el('p', { class: 'summary', 'data-testid': 'widget-summary' });
  summary.hidden = true;
  const verifyLink = el(
    'a',
    { 'data-testid': 'widget-verify-link', target: '_blank', rel: 'noopener noreferrer' },
    t.verify,
  );
  verifyLink.hidden = true;
  const sources = el('section', {
    class: 'sources',
    'data-testid': 'widget-sources',
    'aria-labelledby': 'saksi-sources',
  });
  const sourceList = el('ol');
  sources.append(el('h3', { id: 'saksi-sources' }, t.sources), sourceList);
  sources.hidden = true;
  body.append(quoteBox, answer, summary, verifyLink, sources);

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
  panel.append(header, body, form, el('p', { class: 'footer' }, t.poweredBy));
  root.append(ask, selectionAsk, panel);
  shadow.append(root);

  let running = false;
  let sessionId: string | undefined;
  let selection: string | undefined;
  let pendingSelection = '';

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

  const setStatus = (message: string, state: 'streaming' | 'done' | 'error') => {
    answer.dataset['state'] = state;
    answer.setAttribute('aria-busy', state === 'streaming' ? 'true' : 'false');
    answer.replaceChildren(
      el(
        'p',
        { class: state === 'error' ? '' : 'status', ...(state === 'error' ? { role: 'alert' } : {}) },
        message,
      ),
    );
  };
  const showAnswer = (text: string) => {
    answer.replaceChildren(...paragraphs(text).map((part) => el('p', {}, part)));
  };
  const showCertifiedAnswer = (text: string, bundle: Pick<Bundle, 'certificate'>, markdown: Set<string>) => {
    answer.replaceChildren(...blockNodes(answerBlocks(text, bundle, markdown)));
  };
  const showSources = (items: WidgetSource[]) => {
    sourceList.replaceChildren(
      ...items.map((source) => {
        const item = el('li', { 'data-testid': 'widget-source', 'data-chunk-id': source.chunkId });
        const title = el('strong', {}, source.title);
        if (source.url !== undefined) {
          // The page and heading on the docs site, in a new tab without opener or referrer.
          const link = el('a', {
            href: source.url,
            target: '_blank',
            rel: 'noopener noreferrer',
            'data-testid': 'widget-source-link',
          });
          link.append(title, el('span', { class: 'visually-hidden' }, ` ${t.newTab}`));
          item.append(link);
        } else item.append(title);
        item.append(el('span', { class: 'snippet' }, source.snippet));
        return item;
      }),
    );
    sources.hidden = items.length === 0;
  };
  const showSummary = (counts: Summary) => {
    summary.textContent = t.summary(counts.verified, counts.blocked, counts.total);
    summary.hidden = false;
  };

  async function run(): Promise<void> {
    const question = input.value.trim();
    if (question === '' || running) return;
    running = true;
    updateSend();
    summary.hidden = true;
    verifyLink.hidden = true;
    showSources([]);
    setStatus(t.thinking, 'streaming');
    const request = chatBody(options, question, {
      ...(selection !== undefined ? { selection, pageUrl: location.href } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
    });
    let text = '';
    let markdown = new Set<string>();
    try {
      let response: Response;
      try {
        response = await fetch(`${options.server}/api/v1/chat`, {
          method: 'POST',
          mode: 'cors',
          credentials: 'omit',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify(request),
        });
      } catch {
        throw new WidgetError('WIDGET_NETWORK', t.networkError);
      }
      if (!response.ok || response.body === null) {
        let code = String(response.status);
        try {
          const json = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
          if (typeof json.error?.message === 'string') code = json.error.message;
        } catch {
          // keep the status code
        }
        throw new WidgetError('WIDGET_HTTP', `${t.serverError}: ${code}`);
      }
      let failure: string | undefined;
      let finished = false;
      await readSse(response.body, (event) => {
        const data = eventJson(event);
        if (event.event === 'session' && typeof data['session_id'] === 'string')
          sessionId = data['session_id'];
        else if (event.event === 'retrieval') {
          showSources(sourcesOf(data));
          markdown = markdownDocuments(Array.isArray(data['results']) ? data['results'] : []);
        } else if (event.event === 'delta' && typeof data['text'] === 'string') {
          text += data['text'];
          showAnswer(text);
        } else if (event.event === 'bundle') {
          showSummary(summarize(data));
          if (text.trim() !== '') showCertifiedAnswer(text, data as Pick<Bundle, 'certificate'>, markdown);
        } else if (event.event === 'done') {
          finished = true;
          const href = verifyUrl(options.server, data['certificate_id']);
          if (href !== undefined) {
            verifyLink.href = href;
            verifyLink.hidden = false;
          }
          if (text.trim() === '') showAnswer(t.notFound);
        } else if (event.event === 'error') {
          failure = typeof data['message'] === 'string' ? data['message'] : t.serverError;
        }
      });
      if (failure !== undefined) throw new WidgetError('WIDGET_STREAM', failure);
      if (!finished) throw new WidgetError('WIDGET_STREAM', t.networkError);
      answer.dataset['state'] = 'done';
      answer.setAttribute('aria-busy', 'false');
    } catch (error) {
      summary.hidden = true;
      verifyLink.hidden = true;
      setStatus(error instanceof WidgetError ? error.message : t.networkError, 'error');
    } finally {
      running = false;
      updateSend();
    }
  }

  return host;
}

/** An answer's blocks as DOM nodes: text only through text nodes, links only as the blocks allow. */
function blockNodes(blocks: readonly Block[]): HTMLElement[] {
  return blocks.map((block) => {
    if (block.kind === 'paragraph') {
      const paragraph = el('p');
      paragraph.append(...inlineNodes(block.children));
      return paragraph;
    }
    const list = el(block.ordered ? 'ol' : 'ul');
    for (const item of block.items) {
      const entry = el('li');
      entry.append(...inlineNodes(item));
      list.append(entry);
    }
    return list;
  });
}

function inlineNodes(nodes: readonly Inline[]): Node[] {
  return nodes.map(inlineNode);
}

function inlineNode(node: Inline): Node {
  switch (node.kind) {
    case 'text':
      return document.createTextNode(node.text);
    case 'break':
      return el('br');
    case 'code':
      return el('code', {}, node.text);
    case 'cite':
      return el('sup', { class: 'cite', 'data-cite': String(node.n) }, `[${node.n}]`);
    case 'bold': {
      const strong = el('strong');
      strong.append(...inlineNodes(node.children));
      return strong;
    }
  }
  const link = el('a', { href: node.href, target: '_blank', rel: 'noopener noreferrer nofollow' });
  link.append(...inlineNodes(node.children));
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
