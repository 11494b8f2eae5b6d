/** The widget's styles: they live in its shadow root only and never touch the host page. */
export const WIDGET_CSS = `
:host { all: initial; }
* { box-sizing: border-box; }
.root { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #16202a; }
button, textarea { font: inherit; }
.ask { position: fixed; bottom: 20px; z-index: 2147483000; border: 0; border-radius: 999px;
  padding: 10px 18px; background: #0b5cad; color: #fff; font-weight: 600; cursor: pointer;
  box-shadow: 0 4px 14px rgba(0,0,0,.25); }
.right .ask, .right .panel { right: 20px; }
.left .ask, .left .panel { left: 20px; }
.ask:hover { background: #094a8c; }
button:focus-visible, textarea:focus-visible, a:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.selection-ask { position: fixed; z-index: 2147483001; border: 1px solid #0b5cad; border-radius: 6px;
  padding: 4px 10px; background: #fff; color: #0b5cad; font-weight: 600; cursor: pointer;
  box-shadow: 0 2px 8px rgba(0,0,0,.2); }
.panel { position: fixed; bottom: 76px; z-index: 2147483000; width: min(420px, calc(100vw - 24px));
  max-height: min(640px, calc(100vh - 100px)); display: flex; flex-direction: column;
  background: #fff; border: 1px solid #c9d3dd; border-radius: 12px; box-shadow: 0 10px 30px rgba(0,0,0,.25); }
.panel[hidden], .selection-ask[hidden], [hidden] { display: none !important; }
@media (max-width: 480px) { .right .panel, .left .panel { left: 12px; right: 12px; width: auto; } }
.head { display: flex; align-items: center; justify-content: space-between; padding: 10px 14px;
  border-bottom: 1px solid #e3e8ee; }
h2 { font-size: 16px; margin: 0; }
.close { border: 0; background: transparent; font-size: 22px; line-height: 1; padding: 2px 8px;
  cursor: pointer; color: #16202a; border-radius: 6px; }
.body { padding: 12px 14px; overflow-y: auto; flex: 1; }
blockquote { margin: 0 0 10px; padding: 6px 10px; border-left: 4px solid #0b5cad; background: #f1f5f9;
  color: #2c3a47; max-height: 8em; overflow-y: auto; white-space: pre-wrap; }
.quote-label { font-size: 12px; color: #4a5968; margin: 0 0 2px; }
.answer p { margin: 0 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.answer ul, .answer ol { margin: 0 0 8px; padding-left: 20px; overflow-wrap: anywhere; }
.answer code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
.answer .cite { color: #0b5cad; }
.answer[data-state="error"] { color: #a4161a; }
.status { color: #4a5968; font-style: italic; }
.summary { margin: 8px 0; padding: 6px 8px; border-radius: 6px; background: #e8f3ea; color: #1b5e20; font-weight: 600; }
.sources h3 { font-size: 13px; margin: 10px 0 4px; color: #4a5968; text-transform: uppercase; letter-spacing: .03em; }
.sources ol { margin: 0; padding-left: 20px; font-size: 13px; }
.sources li { margin-bottom: 6px; overflow-wrap: anywhere; }
.sources .snippet { display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; color: #4a5968; }
a { color: #0b5cad; }
form { display: flex; gap: 8px; padding: 10px 14px; border-top: 1px solid #e3e8ee; align-items: flex-end; }
.visually-hidden, label.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
textarea { flex: 1; min-height: 42px; max-height: 120px; resize: vertical; padding: 8px; border: 1px solid #8795a1;
  border-radius: 8px; color: #16202a; background: #fff; }
.send { border: 0; border-radius: 8px; padding: 9px 14px; background: #0b5cad; color: #fff; font-weight: 600; cursor: pointer; }
.send:disabled { background: #8795a1; cursor: not-allowed; }
.footer { font-size: 11px; color: #4a5968; padding: 0 14px 8px; }
`;
