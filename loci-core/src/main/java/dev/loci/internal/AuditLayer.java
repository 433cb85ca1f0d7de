package dev.loci.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.LegalRead;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The audit records every layer shares: reads made under the legal-tier capability ({@code
 * audit.legal_read}), kept in the journal like any write so that who read which superseded versions
 * survives restarts and is in every replay. A later subject index chains them per data subject.
 */
public final class AuditLayer implements Layer {
  /** The layer's name and event prefix. */
  public static final String NAME = "audit";

  static final String LEGAL_READ = NAME + ".legal_read";

  private final List<LegalRead> reads = new ArrayList<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  /** Decides the event that records {@code read}. */
  public Decision<LegalRead> decideLegalRead(LegalRead read) {
    return new Decision<>(
        List.of(Event.ofJson(LEGAL_READ, Json.write(toJson(read)), read)), Set.of(), read);
  }

  /** The legal reads of the namespaces in {@code scope}, oldest first. */
  public List<LegalRead> legalReads(NamespaceScope scope) {
    return reads.stream().filter(r -> scope.contains(r.namespace())).toList();
  }

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    List<LegalRead> add = new ArrayList<>(events.size());
    for (Event e : events) {
      if (!LEGAL_READ.equals(e.type())) {
        throw new IllegalStateException("unknown audit event type '" + e.type() + "'");
      }
      LegalRead hint = (LegalRead) e.decoded().orElse(null);
      add.add(hint != null ? hint : fromJson(e.data(), entry.namespace()));
    }
    return () -> reads.addAll(add);
  }

  @Override
  public Iterable<String> capture() {
    List<String> records = reads.stream().map(r -> Json.write(toJson(r))).toList();
    return records;
  }

  @Override
  public void restore(String record, int version) {
    JsonNode node = SnapshotRecords.read(Json.MAPPER, NAME, record, version, 1);
    try {
      reads.add(fromJson(node, Namespace.of(node.path("ns").asText())));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("bad audit snapshot record: " + e.getMessage(), e);
    }
  }

  @Override
  public void clear() {
    reads.clear();
  }

  private static ObjectNode toJson(LegalRead r) {
    ObjectNode node = Json.object();
    node.put("at", Timestamps.format(r.at()));
    node.put("ns", r.namespace().value());
    node.put("holder", r.holder());
    node.put("action", r.action());
    ArrayNode records = node.putArray("records");
    r.records().forEach(records::add);
    return node;
  }

  private static LegalRead fromJson(JsonNode node, Namespace ns) {
    List<String> records = new ArrayList<>();
    node.path("records").forEach(n -> records.add(n.asText()));
    return new LegalRead(
        Timestamps.parse(node.path("at").asText()),
        ns,
        node.path("holder").asText(),
        node.path("action").asText(),
        records);
  }
}
