-- The keys of each batch's decision (the record ids it depends on or changes), as 64-bit hashes of
-- namespace and id (JournalKeys.hash). A round refused because another server took its numbers is
-- numbered after that server's batches instead of being decided again when none of the batches in
-- between shares a key with it. NULL: the batch conflicts with every other (rows written before
-- this version, erasures, appends without keys).
ALTER TABLE loci_batch ADD COLUMN keys BIGINT[];

-- A journal line renumbered from old_seq to new_seq (as many digits): the digits after {"seq": are
-- replaced and the CRC-32C patched without reading the line. CRC-32C is linear over GF(2), so
-- changing digit j from a to c changes the checksum by w[j][a] xor w[j][c], where w[j][v] is the
-- checksum contribution of the byte '0' + v at digit j's place in this line (zero-byte shifts
-- computed by the client, JournalRenumber); w starts at index wo + 1, ten entries per digit.
CREATE FUNCTION loci_renumber(line bytea, old_seq bigint, new_seq bigint, w bigint[], wo int)
RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  o text := old_seq::text;
  s text := new_seq::text;
  d int := length(o);
  l int := length(line);
  crc bigint := ('x' || lpad(convert_from(substring(line FROM l - 10 FOR 8), 'UTF8'), 16, '0'))::bit(64)::bigint;
  a int;
  c int;
BEGIN
  FOR j IN 1..d LOOP
    a := ascii(substr(o, j, 1)) - 48;
    c := ascii(substr(s, j, 1)) - 48;
    IF a <> c THEN
      crc := crc # w[wo + (j - 1) * 10 + a + 1] # w[wo + (j - 1) * 10 + c + 1];
    END IF;
  END LOOP;
  RETURN overlay(overlay(line PLACING convert_to(s, 'UTF8') FROM 8 FOR d)
    PLACING convert_to(lpad(to_hex(crc), 8, '0'), 'UTF8') FROM l - 10 FOR 8);
END
$$;

-- An append: the round's batches, numbered by the client from p_first on (it decided against every
-- batch before p_first), are inserted after the head, which the appends of every server read in
-- turn under one lock. When the head is past p_first - 1 (other servers appended since the round
-- was decided), the round is renumbered after it (loci_renumber, p_w) unless a batch in between
-- has no keys or shares one with the round, the round has a batch without keys, p_w is null, or
-- the numbers would change their digit count: then nothing is inserted and -1 is returned (the
-- round is decided again). Returns the head the round was inserted after.
CREATE FUNCTION loci_append(p_first bigint, p_ns text[], p_lines bytea, p_offs int[],
  p_lens int[], p_keys text[], p_w bigint[]) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  decided bigint := p_first - 1;
  n int := array_length(p_offs, 1);
  d int := length(p_first::text);
  head bigint;
  fl bigint;
  ar bigint;
  round_keys bigint[];
BEGIN
  PERFORM pg_advisory_xact_lock(7813573182768574564);
  SELECT GREATEST((SELECT COALESCE(MAX(seq), 0) FROM loci_batch), floor, archived), floor, archived
    INTO head, fl, ar FROM loci_journal WHERE id = 1;
  IF head <> decided THEN
    IF head < decided OR p_w IS NULL OR fl > decided OR ar > decided
        OR EXISTS (SELECT 1 FROM unnest(p_keys) k WHERE k IS NULL)
        OR length((p_first + n - 1)::text) <> d OR length((head + 1)::text) <> d
        OR length((head + n)::text) <> d THEN
      RETURN -1;
    END IF;
    SELECT array_agg(x) INTO round_keys FROM unnest(p_keys) k, unnest(k::bigint[]) x;
    IF (SELECT COUNT(*) FROM loci_batch WHERE seq > decided) <> head - decided
        OR EXISTS (SELECT 1 FROM loci_batch b WHERE b.seq > decided
                   AND (b.keys IS NULL OR b.keys && round_keys)) THEN
      RETURN -1;
    END IF;
  END IF;
  INSERT INTO loci_batch (seq, ns, line, keys)
    SELECT head + i, p_ns[i],
      CASE WHEN head = decided THEN substring(p_lines FROM p_offs[i] FOR p_lens[i])
        ELSE loci_renumber(substring(p_lines FROM p_offs[i] FOR p_lens[i]), p_first + i - 1,
                           head + i, p_w, (i - 1) * 10 * d) END,
      p_keys[i]::bigint[]
    FROM generate_series(1, n) AS i;
  RETURN head;
END
$$;
