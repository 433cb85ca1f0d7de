package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.internal.Json;
import dev.loci.internal.Timestamps;
import dev.loci.subjects.Erasure;
import dev.loci.subjects.SubjectPolicy;
import dev.loci.subjects.SubjectsWire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The subject layer's snapshot records: one per subject (reference, policy, audit count, erasure,
 * records with versions), one per completed erasure intent, one per namespace policy. Holds no
 * subject id. Stateless.
 */
final class SubjectSnapshots {
  private SubjectSnapshots() {}

  static List<String> capture(
      SubjectIndex index, Set<String> completedIntents, Map<Namespace, SubjectPolicy> nsPolicies) {
    List<String> out = new ArrayList<>();
    index.forEach(s -> out.add(Json.write(subject(s))));
    completedIntents.forEach(
        id -> {
          ObjectNode n = Json.object();
          n.put("record", "erasure_done");
          n.put("intent", id);
          out.add(Json.write(n));
        });
    nsPolicies.forEach(
        (ns, p) -> {
          ObjectNode n = Json.object();
          n.put("record", "ns_policy");
          n.put("ns", ns.value());
          n.set("policy", SubjectsWire.policy(p));
          out.add(Json.write(n));
        });
    return out;
  }

  private static ObjectNode subject(SubjectIndex.Subject s) {
    ObjectNode n = Json.object();
    n.put("record", "subject");
    n.put("ref", s.ref);
    n.set("policy", SubjectsWire.policy(s.policy));
    n.put("audit_entries", s.auditEntries);
    if (s.erasure != null) {
      ObjectNode er = n.putObject("erasure");
      er.put("at", Timestamps.format(s.erasure.at()));
      er.put("holder", s.erasure.holder());
      er.put("records", s.erasure.records());
    }
    ArrayNode recs = n.putArray("records");
    for (SubjectIndex.Rec h : s.records) {
      ObjectNode r = recs.addObject();
      r.put("layer", h.layer);
      r.put("kind", h.kind);
      r.put("ns", h.ns.value());
      r.put("id", h.id);
      ArrayNode v = r.putArray("versions");
      h.versionsOf(s).forEach(v::add);
      r.put("last", Timestamps.format(h.last));
    }
    return n;
  }

  static void restore(
      JsonNode n,
      SubjectIndex index,
      Set<String> completedIntents,
      Map<Namespace, SubjectPolicy> nsPolicies) {
    switch (n.path("record").asText()) {
      case "subject" -> {
        String ref = n.path("ref").asText();
        SubjectIndex.Subject s = index.getOrAdd(ref);
        s.policy = SubjectLayer.policyFrom(n.path("policy"));
        s.auditEntries = n.path("audit_entries").asLong();
        JsonNode er = n.get("erasure");
        if (er != null) {
          s.erasure =
              new Erasure(
                  Timestamps.parse(er.path("at").asText()),
                  er.path("holder").asText(),
                  er.path("records").asInt());
        }
        for (JsonNode r : n.path("records")) {
          JsonNode vs = r.path("versions");
          long[] versions = new long[vs.size()];
          for (int i = 0; i < versions.length; i++) {
            versions[i] = vs.get(i).asLong();
          }
          index.restore(
              s,
              r.path("layer").asText(),
              r.path("kind").asText(),
              Namespace.of(r.path("ns").asText()),
              r.path("id").asText(),
              versions,
              Timestamps.parse(r.path("last").asText()));
        }
      }
      case "erasure_done" -> completedIntents.add(n.path("intent").asText());
      case "ns_policy" ->
          nsPolicies.put(
              Namespace.of(n.path("ns").asText()), SubjectLayer.policyFrom(n.path("policy")));
      default -> throw new IllegalArgumentException("unknown subjects snapshot record: " + n);
    }
  }
}
