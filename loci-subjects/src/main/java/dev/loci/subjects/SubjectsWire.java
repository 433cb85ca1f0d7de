package dev.loci.subjects;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.internal.Json;

/**
 * The wire format of subject manifests, policies and reports (snake_case JSON), the same in the
 * HTTP API and on the command line. Stateless.
 */
public final class SubjectsWire {
  private SubjectsWire() {}

  /** A manifest as a JSON object. */
  public static ObjectNode manifest(SubjectManifest m) {
    ObjectNode n = Json.object();
    n.put("subject_id", m.subjectId());
    ArrayNode records = n.putArray("records");
    for (HeldRecord r : m.records()) {
      ObjectNode o = records.addObject();
      o.put("layer", r.layer());
      o.put("kind", r.kind());
      o.put("namespace", r.namespace().value());
      o.put("id", r.id());
      ArrayNode v = o.putArray("versions");
      r.versions().forEach(v::add);
      o.put("last_write", r.lastWrite().toString());
    }
    ObjectNode counts = n.putObject("counts_by_kind");
    m.countsByKind().forEach(counts::put);
    ArrayNode ns = n.putArray("namespaces");
    m.namespaces().forEach(x -> ns.add(x.value()));
    n.set("policy", policy(m.policy()));
    m.vertical().ifPresent(v -> n.put("vertical", v));
    m.erasure()
        .ifPresent(
            e -> {
              ObjectNode o = n.putObject("erasure");
              o.put("at", e.at().toString());
              o.put("holder", e.holder());
              o.put("records", e.records());
            });
    n.put("audit_entries", m.auditEntries());
    return n;
  }

  /** A policy as a JSON object; absent fields are not set. */
  public static ObjectNode policy(SubjectPolicy p) {
    ObjectNode n = Json.object();
    p.retainDays().ifPresent(d -> n.put("retain_days", d));
    n.put("legal_hold", p.legalHold());
    p.vertical().ifPresent(v -> n.put("vertical", v));
    p.legalBasis().ifPresent(v -> n.put("legal_basis", v));
    return n;
  }

  /** An erasure report as a JSON object. */
  public static ObjectNode erasure(String subjectId, ErasureReport r) {
    ObjectNode n = Json.object();
    n.put("subject_id", subjectId);
    n.put("records", r.records());
    n.put("batches_rewritten", r.batchesRewritten());
    n.put("took_ms", r.took().toMillis());
    return n;
  }

  /** A sweep report as a JSON object; each expired record without its subjects. */
  public static ObjectNode sweep(SweepReport r) {
    ObjectNode n = Json.object();
    n.put("dry_run", r.dryRun());
    ArrayNode expired = n.putArray("expired");
    for (Expiry e : r.expired()) {
      ObjectNode o = expired.addObject();
      o.put("layer", e.record().layer());
      o.put("kind", e.record().kind());
      o.put("namespace", e.record().namespace().value());
      o.put("id", e.record().id());
      o.put("last_write", e.record().lastWrite().toString());
      o.put("retain_days", e.retainDays());
      o.put("rule", e.rule());
    }
    n.put("held", r.held());
    return n;
  }

  /** An audit verification as a JSON object. */
  public static ObjectNode verification(AuditVerification v) {
    ObjectNode n = Json.object();
    n.put("ok", v.ok());
    n.put("logs", v.logs());
    n.put("entries", v.entries());
    ArrayNode p = n.putArray("problems");
    v.problems().forEach(p::add);
    return n;
  }
}
