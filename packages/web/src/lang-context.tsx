/** The language the page speaks and its translator, shared by every page through React context. */
import { createContext, useContext } from 'react';
import { type Lang, type MessageKey, translate } from './i18n.js';

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export interface LangValue {
  lang: Lang;
  t: Translate;
}

export const LangContext = createContext<LangValue>({
  lang: 'id',
  t: (key, values) => translate('id', key, values),
});

export function useT(): LangValue {
  return useContext(LangContext);
}
