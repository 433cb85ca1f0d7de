-- The keys of each batch's decision (the record ids it depends on or changes), as 64-bit hashes of
-- namespace and id (JournalKeys.hash). A round refused because another server took its numbers is
-- numbered after that server's batches instead of being decided again when none of the batches in
-- between shares a key with it. NULL: the batch conflicts with every other (rows written before
-- this version, erasures, appends without keys).
ALTER TABLE loci_batch ADD COLUMN keys BIGINT[];
