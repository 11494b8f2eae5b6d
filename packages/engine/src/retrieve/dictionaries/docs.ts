/**
 * Everyday developer words → the terms the Redux documentation uses (the `docs` rule group, for an
 * English documentation collection). Every expansion phrase occurs in the docs (docs.test.ts reads the
 * corpus to check). The question keeps its own words beside them: a developer's word is often the
 * docs' word too.
 */
import type { DictionaryEntry } from './types.js';

export const DOCS_DICTIONARY: DictionaryEntry[] = [
  // API reference pages: what a function takes and gives back.
  {
    terms: ['take as input', 'takes as input', 'input', 'inputs'],
    expansion: ['Arguments', 'parameters'],
  },
  { terms: ['return', 'returns', 'return value', 'output', 'give back', 'gives back'], expansion: 'Returns' },
  // Concepts.
  {
    terms: ['global state', 'app state', 'application state', 'state container', 'central state'],
    expansion: ['store', 'global state'],
  },
  {
    terms: ['update the state', 'change the state', 'modify the state', 'update state', 'change state'],
    expansion: ['dispatch', 'action', 'reducer'],
  },
  {
    terms: ['read the state', 'read state', 'get the state', 'access the state', 'access state'],
    expansion: ['useSelector', 'getState', 'selector'],
  },
  {
    terms: [
      're-render',
      're-renders',
      'rerender',
      'rerenders',
      're-rendering',
      'rerendering',
      'not updating',
    ],
    expansion: ['re-render', 'useSelector'],
  },
  {
    terms: ['derived data', 'computed', 'computed values', 'memoize', 'memoized', 'memoization'],
    expansion: ['createSelector', 'memoized selectors', 'derived data'],
  },
  {
    terms: ['api call', 'api calls', 'fetch data', 'fetching data', 'data fetching', 'ajax', 'http request'],
    expansion: ['data fetching', 'RTK Query', 'createAsyncThunk'],
  },
  {
    terms: ['async', 'asynchronous', 'side effect', 'side effects'],
    expansion: ['async logic', 'side effects', 'thunk'],
  },
  {
    terms: ['mutate', 'mutating', 'mutation', 'mutations', 'immutable', 'immutability'],
    expansion: ['immutable updates', 'Immer', 'mutate'],
  },
  { terms: ['boilerplate'], expansion: ['boilerplate', 'Redux Toolkit'] },
  {
    terms: ['normalize', 'normalized', 'normalizing', 'lookup table', 'by id', 'ids and entities'],
    expansion: ['normalized state', 'createEntityAdapter'],
  },
  {
    terms: ['code splitting', 'code-splitting', 'lazy load', 'lazy-load', 'lazy loading', 'dynamically load'],
    expansion: ['code splitting', 'inject'],
  },
  {
    terms: [
      'react to an action',
      'react to actions',
      'listen for actions',
      'listen to actions',
      'event listener',
    ],
    expansion: ['createListenerMiddleware', 'listener middleware'],
  },
  { terms: ['cache', 'caching', 'cached'], expansion: ['cache', 'RTK Query'] },
  { terms: ['devtools', 'dev tools', 'debugging', 'debug'], expansion: 'Redux DevTools' },
  {
    terms: ['test', 'tests', 'testing', 'unit test', 'unit tests', 'mock', 'mocking'],
    expansion: ['testing', 'Writing Tests'],
  },
  { terms: ['ts', 'typescript', 'types', 'typed', 'typing'], expansion: 'TypeScript' },
  {
    terms: ['deprecated', 'crossed out', 'strikethrough', 'struck through'],
    expansion: ['deprecated', 'deprecation'],
  },
  {
    terms: [
      'upgrade',
      'upgraded',
      'upgrading',
      'migrate',
      'migrating',
      'breaking change',
      'breaking changes',
    ],
    expansion: ['migrating', 'Breaking Changes'],
  },
  {
    terms: ['ssr', 'server side rendering', 'server-side rendering', 'next.js', 'nextjs', 'app router'],
    expansion: ['server rendering', 'Next.js'],
  },
  { terms: ['form', 'forms', 'input fields', 'form inputs'], expansion: 'form state' },
  { terms: ['react context', 'context api', 'usecontext'], expansion: ['React Context', 'context'] },
  {
    terms: ['serializable', 'non-serializable', 'serialize', 'class instance', 'class instances'],
    expansion: 'non-serializable',
  },
  {
    terms: ['folder structure', 'file structure', 'project structure', 'organize files'],
    expansion: ['folder structure', 'code structure'],
  },
];
