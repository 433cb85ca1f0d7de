-- Archiving (loci compact --archive): batches every registered server's snapshot covers move from
-- loci_batch to loci_batch_archive, in one transaction. Reads see both tables as one journal.
CREATE TABLE loci_batch_archive (
  seq        BIGINT      PRIMARY KEY,
  ns         TEXT        NOT NULL,
  line       BYTEA       NOT NULL,
  written_at TIMESTAMPTZ NOT NULL
);

-- The highest sequence number moved to loci_batch_archive: appends number above it, so a number
-- whose row left loci_batch (and with it the primary key's protection) is never used again.
ALTER TABLE loci_journal ADD COLUMN archived BIGINT NOT NULL DEFAULT 0;

-- One row per server that compacted: the sequence number of its newest snapshot, the batches it
-- no longer needs from the journal to reopen. Archiving moves the batches at or below the lowest.
CREATE TABLE loci_server (
  id           TEXT        PRIMARY KEY,
  snapshot_seq BIGINT      NOT NULL,
  data_dir     TEXT        NOT NULL,
  seen_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
