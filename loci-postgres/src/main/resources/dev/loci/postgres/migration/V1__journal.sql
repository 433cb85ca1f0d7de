-- Loci's journal in PostgreSQL: one row per committed batch, in sequence order.
-- line holds the exact journal line of the file journal (JSON with its CRC-32C), so verify and
-- export read a row as they read a line of a segment.
CREATE TABLE loci_batch (
  seq        BIGINT      PRIMARY KEY,
  ns         TEXT        NOT NULL,
  line       BYTEA       NOT NULL,
  written_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The sequence numbers up to floor are used (covered by a snapshot whose batches were archived),
-- so the next batch is numbered above max(seq, floor).
CREATE TABLE loci_journal (
  id    SMALLINT PRIMARY KEY CHECK (id = 1),
  floor BIGINT   NOT NULL
);
INSERT INTO loci_journal (id, floor) VALUES (1, 0);

-- Every append wakes the servers that follow the journal, in the appending statement itself (no
-- extra round trip); the payload is the highest sequence number appended.
CREATE FUNCTION loci_batch_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('loci_batch', (SELECT MAX(seq) FROM appended)::text);
  RETURN NULL;
END
$$;
CREATE TRIGGER loci_batch_appended AFTER INSERT ON loci_batch
  REFERENCING NEW TABLE AS appended FOR EACH STATEMENT EXECUTE FUNCTION loci_batch_notify();
