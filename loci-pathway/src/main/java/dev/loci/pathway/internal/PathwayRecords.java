package dev.loci.pathway.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayWrite;
import dev.loci.pathway.RedactionPolicy;
import dev.loci.pathway.internal.PathwayShelves.Shelf;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The JSON of {@link PathwayLayer}'s state: the data of its events (a written trace with its
 * redaction count, traces as trees, the text fields replay and retire events carry) and its
 * snapshot records (a namespace's redaction policy, its counters, or one trace). Reading fails with
 * {@link IllegalStateException}, as a projection's reading of its own events does. Stateless.
 */
final class PathwayRecords {
  private PathwayRecords() {}

  // ---------------------------------------------------------------- events

  /** The event of {@code type} that writes {@code w}: its redaction count and its trace. */
  static Event writeEvent(String type, PathwayWrite w) {
    String json = "{\"redactions\":" + w.redactions() + ",\"trace\":" + w.trace().toJson() + "}";
    return Event.ofJson(type, json, w);
  }

  /** {@code t} as a JSON tree. */
  static JsonNode tree(PathwayTrace t) {
    return PathwayJson.MAPPER.valueToTree(t);
  }

  /** The write a {@code pathway.inserted} or {@code pathway.revised} event's data holds. */
  static PathwayWrite readWrite(JsonNode data) {
    return new PathwayWrite(readTrace(data.path("trace")), data.path("redactions").asInt());
  }

  /** The trace {@code node} holds. */
  static PathwayTrace readTrace(JsonNode node) {
    try {
      return PathwayJson.MAPPER.treeToValue(node, PathwayTrace.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("unreadable pathway trace: " + e.getMessage(), e);
    }
  }

  /** The text field {@code field} of an event's data, which must be there. */
  static String text(JsonNode data, String field) {
    JsonNode n = data.get(field);
    if (n == null || !n.isTextual()) {
      throw new IllegalStateException("event lacks '" + field + "'");
    }
    return n.asText();
  }

  // ---------------------------------------------------------------- snapshots

  /**
   * The snapshot records of {@code policies} and {@code shelves}: every namespace's policy, then
   * for every namespace its counters and its traces, namespaces in order.
   */
  static Iterable<String> capture(
      Map<Namespace, RedactionPolicy> policies, Map<Namespace, Shelf> shelves) {
    List<Object[]> records = new ArrayList<>();
    policies.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> records.add(new Object[] {e.getKey(), e.getValue()}));
    shelves.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              Shelf s = e.getValue();
              records.add(new Object[] {e.getKey(), s.redactions, s.lastUpdated});
              s.frozen().forEach(t -> records.add(new Object[] {e.getKey(), t}));
            });
    return () ->
        records.stream()
            .map(
                r -> {
                  ObjectNode node = PathwayJson.MAPPER.createObjectNode();
                  node.put("ns", r[0].toString());
                  if (r[1] instanceof RedactionPolicy p) {
                    node.set("policy", RedactionPolicyJson.toJson(p));
                  } else if (r[1] instanceof Supplier<?> t) {
                    node.set("trace", tree((PathwayTrace) t.get()));
                  } else {
                    node.put("redactions", (Long) r[1]);
                    node.put("last_updated_at", r[2].toString());
                  }
                  return node.toString();
                })
            .iterator();
  }

  /**
   * Restores one snapshot record, read as {@code node}, into {@code policies} or {@code shelves}.
   *
   * @throws IllegalArgumentException if it holds an unreadable trace
   */
  static void restore(
      JsonNode node, Map<Namespace, RedactionPolicy> policies, PathwayShelves shelves) {
    Namespace ns = Namespace.of(node.path("ns").asText());
    if (node.has("policy")) {
      policies.put(ns, RedactionPolicyJson.fromJson(node.get("policy")));
    } else if (node.has("trace")) {
      try {
        shelves.shelf(ns).put(readTrace(node.get("trace")));
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
    } else {
      Shelf s = shelves.shelf(ns);
      s.redactions = node.path("redactions").asLong();
      s.lastUpdated = Instant.parse(node.path("last_updated_at").asText());
    }
  }
}
