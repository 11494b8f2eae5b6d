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
button:focus-visible, textarea:focus-visible, a:focus-visible, summary:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.selection-ask { position: fixed; z-index: 2147483001; border: 1px solid #0b5cad; border-radius: 6px;
  padding: 4px 10px; background: #fff; color: #0b5cad; font-weight: 600; cursor: pointer;
  box-shadow: 0 2px 8px rgba(0,0,0,.2); }
.panel { position: fixed; bottom: 76px; z-index: 2147483000; width: min(440px, calc(100vw - 24px));
  max-height: min(680px, calc(100vh - 100px)); display: flex; flex-direction: column;
  background: #fff; border: 1px solid #c9d3dd; border-radius: 12px; box-shadow: 0 10px 30px rgba(0,0,0,.25);
  overflow: hidden; }
.panel[hidden], .selection-ask[hidden], [hidden] { display: none !important; }
@media (max-width: 480px) { .right .panel, .left .panel { left: 8px; right: 8px; width: auto; bottom: 72px; max-height: calc(100vh - 84px); } }
.head { display: flex; align-items: center; justify-content: space-between; padding: 10px 14px;
  border-bottom: 1px solid #e3e8ee; }
h2 { font-size: 16px; margin: 0; }
.close { border: 0; background: transparent; font-size: 22px; line-height: 1; padding: 2px 8px;
  cursor: pointer; color: #16202a; border-radius: 6px; }
.body { position: relative; padding: 12px 14px; overflow-y: auto; flex: 1; min-height: 0; min-width: 0; }
.log { display: flex; flex-direction: column; gap: 10px; min-width: 0; }
.msg { min-width: 0; max-width: 100%; overflow-wrap: anywhere; }
.msg p { margin: 0 0 8px; }
.user { align-self: flex-end; max-width: 88%; background: #e7f0fa; color: #16202a; border-radius: 12px 12px 2px 12px;
  padding: 8px 12px; white-space: pre-wrap; }
.user p:last-child { margin: 0; }
.asked-quote { margin: 0 0 6px; padding: 2px 8px; border-left: 3px solid #0b5cad; color: #2c3a47; font-size: 13px;
  max-height: 5.5em; overflow-y: auto; white-space: pre-wrap; }
.pending-quote { padding: 8px 14px 0; border-top: 1px solid #e3e8ee; }
.pending-quote blockquote { margin: 0; padding: 6px 10px; border-left: 4px solid #0b5cad; background: #f1f5f9;
  color: #2c3a47; max-height: 6em; overflow-y: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.quote-label { font-size: 12px; color: #4a5968; margin: 0 0 2px; }
.answer p { white-space: pre-wrap; }
.answer ul, .answer ol { margin: 0 0 8px; padding-left: 20px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.answer code { font-size: .9em; background: #f1f5f9; border-radius: 4px; padding: 0 3px; }
pre.code, pre.snippet { margin: 0 0 8px; padding: 8px 10px; background: #f1f5f9; border: 1px solid #e3e8ee;
  border-radius: 6px; font-size: 13px; line-height: 1.45; white-space: pre; overflow-x: auto; max-width: 100%;
  overflow-wrap: normal; }
pre.code code { background: none; padding: 0; font-size: inherit; }
.cite { line-height: 0; }
.cite a { color: #0b5cad; text-decoration: none; padding: 0 1px; }
.cite a:hover { text-decoration: underline; }
.answer[data-state="error"] { color: #a4161a; }
.status { color: #4a5968; font-style: italic; }
.msg[data-verdict="failed"] .answer { border-left: 4px solid #c62828; padding-left: 10px; color: #4a1c1c; }
.badge { margin: 0 0 8px; padding: 8px 10px; border-radius: 8px; background: #eef1f4; color: #2c3a47; font-size: 14px; }
.badge p { margin: 0 0 4px; }
.badge-title { font-weight: 600; }
.badge[data-state="checking"] .badge-title { font-weight: 400; font-style: italic; }
.badge[data-state="verified"] { background: #e8f3ea; color: #1b4d1e; }
.badge[data-state="failed"] { background: #fde8e8; color: #7a1014; border-left: 4px solid #c62828; }
.badge[data-state="key-changed"] { background: #fff4e0; color: #5c3800; border-left: 4px solid #b26a00; }
.badge[data-state="related"] { background: #fff4e0; color: #5c3800; border-left: 4px solid #b26a00; }
.msg[data-verdict="related"] .answer { border-left: 4px solid #b26a00; padding-left: 10px; font-style: italic; }
.chip[data-ok="warn"] { border-color: #e0b870; color: #5c3800; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 4px 0; }
.chip { padding: 1px 8px; border-radius: 999px; font-size: 13px; background: #fff; border: 1px solid #b7c9b9; }
.chip[data-ok="false"] { border-color: #d9a3a3; color: #7a1014; }
.chip[data-ok="unknown"] { border-color: #c9d3dd; color: #2c3a47; }
.problems { margin: 0 0 4px; padding-left: 20px; }
.badge details { margin-top: 4px; font-size: 13px; }
.badge summary { cursor: pointer; color: #0b4f94; }
.badge details p { margin: 4px 0 0; }
.key { font-size: 13px; overflow-wrap: anywhere; }
.trust { margin-top: 4px; border: 1px solid #5c3800; border-radius: 6px; background: #fff; color: #5c3800; padding: 4px 10px;
  cursor: pointer; font-size: 13px; }
.sources { min-width: 0; }
.sources h3 { font-size: 13px; margin: 10px 0 4px; color: #4a5968; text-transform: uppercase; letter-spacing: .03em; }
.sources ul { list-style: none; margin: 0; padding: 0; font-size: 13px; }
.sources li { margin-bottom: 8px; padding: 4px 6px; border-radius: 6px; min-width: 0; overflow-wrap: anywhere; }
.sources li:focus { outline: 2px solid #0b5cad; outline-offset: 0; background: #f1f5f9; }
.source-head { margin: 0 0 2px; }
.marker { color: #0b5cad; font-weight: 600; }
blockquote.snippet { margin: 0; padding: 2px 0 2px 8px; border-left: 3px solid #c9d3dd; color: #3d4b58;
  white-space: pre-line; max-height: 9em; overflow-y: auto; }
pre.snippet { max-height: 12em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.proof { display: inline-block; margin: 2px 0 4px; font-size: 14px; }
a { color: #0b5cad; }
a:not([href]) { color: inherit; text-decoration: none; }
form { display: flex; gap: 8px; padding: 10px 14px; border-top: 1px solid #e3e8ee; align-items: flex-end; }
.visually-hidden, label.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
textarea { flex: 1; min-width: 0; min-height: 42px; max-height: 120px; resize: vertical; padding: 8px; border: 1px solid #8795a1;
  border-radius: 8px; color: #16202a; background: #fff; }
.send { border: 0; border-radius: 8px; padding: 9px 14px; background: #0b5cad; color: #fff; font-weight: 600; cursor: pointer; }
.send:disabled { background: #6b7884; cursor: not-allowed; }
.feedback { margin-top: 6px; padding-top: 6px; border-top: 1px solid #e3e8ee; font-size: 13px; }
.feedback-choice { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.feedback-legend { margin: 0 4px 0 0 !important; color: #4a5968; }
.feedback-button .thumb { vertical-align: -2px; margin-right: 4px; }
.feedback-button .thumb.down { transform: rotate(180deg); }
.feedback-button { border: 1px solid #c9d3dd; border-radius: 999px; background: #fff; color: #16202a; padding: 2px 10px; cursor: pointer; font-size: 13px; }
.feedback-button[aria-pressed="true"] { background: #0b5cad; border-color: #0b5cad; color: #fff; }
.feedback-status { margin: 4px 0 0 !important; font-size: 13px; }
.feedback-status:empty { display: none; }
.feedback-status.error { color: #a4161a; font-style: normal; }
.feedback-comment { display: flex; flex-direction: column; gap: 4px; margin-top: 6px; }
.feedback-comment textarea { min-height: 48px; }
.feedback-comment .send { align-self: flex-end; padding: 5px 12px; font-size: 13px; }
.footer { font-size: 11px; color: #4a5968; padding: 0 14px 8px; margin: 0; }
`;
