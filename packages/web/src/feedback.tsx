/**
 * Feedback on an answer (docs/api.md, "Feedback"): thumbs up or down, then an optional comment. The
 * choice is remembered in this browser per certificate, so a restored conversation shows it; the server
 * keeps one per certificate and reader, a later one replacing it.
 */
import { type FormEvent, useId, useState } from 'react';
import { ApiError, apiCall, readStorage, saksi, writeStorage } from './api.js';
import { errorText } from './error-text.js';
import { formatNumber } from './format.js';
import { useT } from './lang-context.js';

export type Rating = 'up' | 'down';

/** The longest comment the server keeps (characters). */
export const MAX_COMMENT = 1_000;

const storageKey = (certificateId: string) => `saksi.feedback.${certificateId}`;

/** Sends feedback on the answer of `certificateId`; throws an `ApiError` when it is refused. */
export async function sendFeedback(certificateId: string, rating: Rating, comment?: string): Promise<void> {
  await apiCall(
    saksi.giveFeedback({
      certificate_id: certificateId,
      rating,
      ...(comment !== undefined && comment.trim() !== '' ? { comment: comment.trim() } : {}),
    }),
  );
}

function storedRating(certificateId: string): Rating | undefined {
  const value = readStorage(storageKey(certificateId));
  return value === 'up' || value === 'down' ? value : undefined;
}

type State = 'idle' | 'sending' | 'sent' | 'commented' | 'failed';

export function FeedbackControl(props: { certificateId: string }) {
  const { t, lang } = useT();
  const ids = useId();
  const { certificateId } = props;
  const [rating, setRating] = useState<Rating | undefined>(() => storedRating(certificateId));
  const [state, setState] = useState<State>('idle');
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState<string | undefined>();
  const [commentOpen, setCommentOpen] = useState(false);
  /** The comment the server has: a change of rating sends it again, so it is kept. */
  const [sentComment, setSentComment] = useState<string | undefined>();

  const send = async (chosen: Rating, text: string | undefined, announce: 'sent' | 'commented') => {
    setState('sending');
    setFailure(undefined);
    try {
      await sendFeedback(certificateId, chosen, text);
      setRating(chosen);
      writeStorage(storageKey(certificateId), chosen);
      if (announce === 'commented' && text !== undefined) {
        setSentComment(text.trim());
        setComment('');
      }
      setState(announce);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('NETWORK', String(error));
      setFailure(errorText(apiError, lang, t));
      setState('failed');
    }
  };

  const choose = (chosen: Rating) => {
    if (state === 'sending') return;
    setCommentOpen(true);
    void send(chosen, sentComment, 'sent');
  };

  const submitComment = (event: FormEvent) => {
    event.preventDefault();
    if (rating === undefined || comment.trim() === '' || state === 'sending') return;
    void send(rating, comment, 'commented');
  };

  return (
    <div className="feedback" data-testid="feedback" data-rating={rating ?? ''}>
      <fieldset className="feedback-choice">
        <legend className="feedback-legend">{t('feedback.question')}</legend>
        <button
          type="button"
          className="feedback-button"
          data-testid="feedback-up"
          aria-pressed={rating === 'up'}
          disabled={state === 'sending'}
          onClick={() => choose('up')}
        >
          <Thumb direction="up" />
          <span>{t('feedback.up')}</span>
        </button>
        <button
          type="button"
          className="feedback-button"
          data-testid="feedback-down"
          aria-pressed={rating === 'down'}
          disabled={state === 'sending'}
          onClick={() => choose('down')}
        >
          <Thumb direction="down" />
          <span>{t('feedback.down')}</span>
        </button>
      </fieldset>
      <p className="feedback-status muted" role="status" data-testid="feedback-status">
        {state === 'sending'
          ? t('feedback.sending')
          : state === 'sent'
            ? t('feedback.thanks')
            : state === 'commented'
              ? t('feedback.thanksComment')
              : ''}
      </p>
      {state === 'failed' && failure !== undefined && (
        <p className="error" role="alert" data-testid="feedback-error">
          {t('feedback.failed', { message: failure })}
        </p>
      )}
      {commentOpen && rating !== undefined && state !== 'commented' && (
        <form className="feedback-comment" onSubmit={submitComment}>
          <label htmlFor={`${ids}-comment`}>{t('feedback.commentLabel')}</label>
          <textarea
            id={`${ids}-comment`}
            data-testid="feedback-comment"
            rows={2}
            maxLength={MAX_COMMENT}
            value={comment}
            placeholder={rating === 'down' ? t('feedback.commentDown') : t('feedback.commentUp')}
            onChange={(event) => setComment(event.target.value)}
          />
          <div className="feedback-actions">
            <span className="muted" aria-live="off">
              {t('feedback.count', {
                count: formatNumber(comment.length, lang),
                max: formatNumber(MAX_COMMENT, lang),
              })}
            </span>
            <button
              type="submit"
              className="button secondary"
              data-testid="feedback-send"
              disabled={comment.trim() === '' || state === 'sending'}
            >
              {t('feedback.send')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

/** A thumb, drawn (an emoji would render differently on every system). */
function Thumb(props: { direction: Rating }) {
  return (
    <svg
      className={props.direction === 'down' ? 'feedback-icon down' : 'feedback-icon'}
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
    >
      <path
        d="M7 10v11H3V10h4zm2 11h8.3a2 2 0 0 0 2-1.6l1.4-7A2 2 0 0 0 18.7 10H14l.9-4.3a1.6 1.6 0 0 0-2.9-1.2L9 10v11z"
        fill="currentColor"
      />
    </svg>
  );
}
