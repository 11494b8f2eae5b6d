-- Budget figures (docs/engine.md, "Answering and certificates"): every amount a budget document
-- states ("Anggaran Pendapatan Negara Tahun Anggaran 2023 direncanakan sebesar Rp… (… rupiah)"),
-- read from its chunks in the transaction that stores them, so a budget question is answered from
-- the statute's own clause. Offsets are UTF-16 code units into the chunk's text; `amount` is exact
-- (never a float). A figure whose digits are misread or whose words say another number is kept
-- `garbled` and never answered from.
CREATE TABLE budget_figures (
  chunk_id text NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
  document_id text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  fiscal_year integer,
  measure text,
  label text NOT NULL,
  amount numeric,
  span_start integer NOT NULL CHECK (span_start >= 0),
  span_end integer NOT NULL CHECK (span_end > span_start),
  span_text text NOT NULL,
  amount_start integer NOT NULL CHECK (amount_start >= span_start),
  amount_end integer NOT NULL CHECK (amount_end > amount_start AND amount_end <= span_end),
  words_checked boolean NOT NULL,
  garbled boolean NOT NULL,
  primary_statement boolean NOT NULL,
  PRIMARY KEY (chunk_id, amount_start)
);
CREATE INDEX budget_figures_lookup ON budget_figures (collection_id, measure, fiscal_year) WHERE NOT garbled;
CREATE INDEX budget_figures_document ON budget_figures (document_id);
