/**
 * Feedback on a widget answer (docs/api.md, "Feedback"): thumbs up or down on its certificate, then an
 * optional comment, sent to the Saksi server the widget came from (an allowed origin, like the chat).
 * The server keeps one per certificate and reader; a later one replaces it.
 */
import { giveFeedback } from '@saksi/client';
import type { WidgetStrings } from './strings.js';

/** The longest comment the server keeps (characters). */
const MAX_COMMENT = 1_000;

type Rating = 'up' | 'down';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A thumb, drawn (an emoji needs a font the page may not have). */
function thumb(rating: Rating): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', rating === 'down' ? 'thumb down' : 'thumb');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute(
    'd',
    'M7 10v11H3V10h4zm2 11h8.3a2 2 0 0 0 2-1.6l1.4-7A2 2 0 0 0 18.7 10H14l.9-4.3a1.6 1.6 0 0 0-2.9-1.2L9 10v11z',
  );
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

/** The feedback controls of the answer certified by `certificateId`. */
export function feedbackNode(t: WidgetStrings, server: string, certificateId: string): HTMLElement {
  const root = element('div', { class: 'feedback', 'data-testid': 'widget-feedback' });
  const group = element('div', { class: 'feedback-choice', role: 'group' });
  const legend = element('p', { class: 'feedback-legend', id: `fb-${certificateId}` }, t.feedbackQuestion);
  group.setAttribute('aria-labelledby', legend.id);
  const button = (rating: Rating, text: string) => {
    const node = element('button', {
      type: 'button',
      class: 'feedback-button',
      'aria-pressed': 'false',
      'data-testid': `widget-feedback-${rating}`,
    });
    node.append(thumb(rating), text);
    return node;
  };
  const up = button('up', t.feedbackUp);
  const down = button('down', t.feedbackDown);
  group.append(legend, up, down);
  const status = element('p', {
    class: 'status feedback-status',
    role: 'status',
    'data-testid': 'widget-feedback-status',
  });
  const comment = element('div', { class: 'feedback-comment' });
  comment.hidden = true;
  const label = element('label', { for: `fbc-${certificateId}` }, t.feedbackCommentLabel);
  const box = element('textarea', {
    id: `fbc-${certificateId}`,
    rows: '2',
    maxlength: String(MAX_COMMENT),
    'data-testid': 'widget-feedback-comment',
  });
  const send = element(
    'button',
    { type: 'button', class: 'send', 'data-testid': 'widget-feedback-send' },
    t.feedbackSend,
  );
  comment.append(label, box, send);
  root.append(group, status, comment);

  let rating: Rating | undefined;
  let busy = false;
  const submit = async (chosen: Rating, text?: string) => {
    if (busy) return;
    busy = true;
    up.disabled = down.disabled = send.disabled = true;
    try {
      await giveFeedback(
        { baseUrl: server, credentials: 'omit' },
        {
          certificate_id: certificateId,
          rating: chosen,
          ...(text !== undefined && text.trim() !== '' ? { comment: text.trim() } : {}),
        },
      );
      rating = chosen;
      up.setAttribute('aria-pressed', String(chosen === 'up'));
      down.setAttribute('aria-pressed', String(chosen === 'down'));
      status.textContent = t.feedbackThanks;
      status.classList.remove('error');
      comment.hidden = text !== undefined;
    } catch {
      status.textContent = t.feedbackFailed;
      status.classList.add('error');
    } finally {
      busy = false;
      up.disabled = down.disabled = send.disabled = false;
    }
  };
  up.addEventListener('click', () => void submit('up'));
  down.addEventListener('click', () => void submit('down'));
  send.addEventListener('click', () => {
    if (rating !== undefined && box.value.trim() !== '') void submit(rating, box.value);
  });
  return root;
}
