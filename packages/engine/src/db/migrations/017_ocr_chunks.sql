-- Chunks read by OCR from scanned PDF pages (docs/engine.md, "OCR of scanned pages"): the lowest
-- recognition confidence (0–1) of the OCR blocks a chunk holds. NULL for text from a text layer or a
-- text format. Budget figures in such chunks are stated only when their words confirm them.
ALTER TABLE chunks ADD COLUMN ocr_confidence real CHECK (ocr_confidence BETWEEN 0 AND 1);
