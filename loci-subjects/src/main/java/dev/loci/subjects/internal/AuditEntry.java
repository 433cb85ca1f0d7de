package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.internal.Json;
import dev.loci.internal.Timestamps;
import java.time.Instant;
import java.util.List;

/**
 * One entry of a subject's audit log before it is chained: everything in it comes from one journal
 * batch, so replaying the journal makes the same entry again.
 *
 * @param ref the subject's reference (see {@link SubjectLayer#ref})
 * @param n the entry's number in the subject's log, from 1
 * @param seq the journal batch it records
 * @param at the batch's time
 * @param actor who wrote the batch, or {@code legal:<holder>} for a legal read
 * @param namespace the batch's namespace
 * @param action what happened: event types, {@code legal_read:<what>}, {@code policy_set}, {@code
 *     erased}, {@code expired}
 * @param records the records it touched, each {@code kind}, {@code id}, {@code version}
 */
record AuditEntry(
    String ref,
    long n,
    long seq,
    Instant at,
    String actor,
    String namespace,
    String action,
    List<Touched> records) {

  /** A record an entry touched. */
  record Touched(String kind, String id, long version) {}

  /** The entry's fields as a JSON object, in a fixed order, before key, prev and mac. */
  ObjectNode toJson() {
    ObjectNode n = Json.object();
    n.put("n", this.n);
    n.put("seq", seq);
    n.put("at", Timestamps.format(at));
    n.put("actor", actor);
    n.put("ns", namespace);
    n.put("action", action);
    ArrayNode recs = n.putArray("records");
    for (Touched t : records) {
      ObjectNode r = recs.addObject();
      r.put("kind", t.kind());
      r.put("id", t.id());
      if (t.version() > 0) {
        r.put("version", t.version());
      }
    }
    return n;
  }
}
