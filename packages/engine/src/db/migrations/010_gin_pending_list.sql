-- The text-search indexes collect new entries in a pending list and merge it into the index when it
-- passes gin_pending_list_limit (4 MB by default). The insert that passes it does the whole merge, and
-- on the embedded PGlite that insert runs on the server's thread: about 100 ms of a chunk batch that
-- should take 25 (docs/engine.md, "Bounds on one document"). With 64 kB the merges come more often
-- and each takes a millisecond or two; a query reads a shorter pending list too.
ALTER INDEX chunks_tsv SET (gin_pending_list_limit = 64);
ALTER INDEX chunks_heading_tsv SET (gin_pending_list_limit = 64);
