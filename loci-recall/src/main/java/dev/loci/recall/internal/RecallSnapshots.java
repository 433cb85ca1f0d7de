package dev.loci.recall.internal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.loci.Namespace;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.internal.RecallGraph.Graph;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The recall layer's snapshot records, format version {@value #VERSION}: one JSON object per
 * version of every node and edge, namespaces in order, each record's versions oldest first: {@code
 * {"ns", "version", "at", "removed", "node" | "edge"}}. Since version 2 each namespace's records
 * start with its sizes, {@code {"ns", "nodes", "edges"}} (how many nodes and edges it ever held, so
 * that a restore sizes its tables once), and an edge record ends with the ordinals of its nodes,
 * {@code "from_node"} and {@code "to_node"} (their places in the order first put, which a restore
 * rebuilds, so that it finds them without looking their ids up; checked against the ids). Version 1
 * records, without either, are still read.
 *
 * <p>Records are written with Jackson databind, and read by {@link RecallRecordReader} when they
 * have the common shape, else with databind straight from the text to {@link Record}; and the
 * namespace of consecutive records (all of one namespace come together) is parsed once.
 *
 * <p>Not thread-safe: one instance restores one snapshot's records, in order, during recovery.
 */
final class RecallSnapshots {
  /** The format version of the records written. */
  static final int VERSION = 2;

  /** The oldest format version still read. */
  static final int OLDEST = 1;

  private final RecallApply.Target target;
  private final RecallRecordReader reader;
  private String lastNsText = "";
  private Namespace lastNs;

  /** A reader of records into {@code target}. */
  RecallSnapshots(RecallApply.Target target) {
    this.target = target;
    this.reader = new RecallRecordReader((ns, ordinal) -> target.nodeId(namespace(ns), ordinal));
  }

  /**
   * One version of a node or an edge, as a snapshot holds it, or the sizes of a namespace ({@code
   * ns}, {@code nodes} and {@code edges} only).
   */
  @JsonPropertyOrder({
    "ns",
    "version",
    "at",
    "removed",
    "node",
    "edge",
    "from_node",
    "to_node",
    "nodes",
    "edges"
  })
  @JsonIgnoreProperties(ignoreUnknown = true)
  record Record(
      String ns,
      Integer version,
      Instant at,
      Boolean removed,
      MemoryNode node,
      MemoryEdge edge,
      Integer fromNode,
      Integer toNode,
      Integer nodes,
      Integer edges) {
    /** A version of a node or an edge, without its nodes' ordinals (format version 1). */
    Record(
        String ns, Integer version, Instant at, Boolean removed, MemoryNode node, MemoryEdge edge) {
      this(ns, version, at, removed, node, edge, null, null, null, null);
    }
  }

  /**
   * The records of {@code graph}. Called with shared access; the iterable holds only immutable
   * values and is consumed later, without access.
   */
  static Iterable<String> capture(RecallGraph graph) {
    List<Record> records = new ArrayList<>();
    for (Namespace ns : graph.namespaces()) {
      Graph g = graph.find(ns);
      records.add(
          new Record(
              ns.value(),
              null,
              null,
              null,
              null,
              null,
              null,
              null,
              g.nodes.size(),
              g.edges.size()));
      g.nodes.forEachChain(c -> c.versions().forEach(v -> records.add(record(ns, v, null, null))));
      g.edges.forEachChain(
          c -> {
            Integer from = g.nodes.get(c.from()).ordinal;
            Integer to = g.nodes.get(c.to()).ordinal;
            c.versions().forEach(v -> records.add(record(ns, v, from, to)));
          });
    }
    return () -> records.stream().map(RecallSnapshots::write).iterator();
  }

  private static Record record(Namespace ns, RecordVersion<?> v, Integer from, Integer to) {
    return new Record(
        ns.value(),
        v.version(),
        v.at(),
        v.removed(),
        v.value() instanceof MemoryNode n ? n : null,
        v.value() instanceof MemoryEdge e ? e : null,
        from,
        to,
        null,
        null);
  }

  private static String write(Record r) {
    try {
      return RecallJson.MAPPER.writeValueAsString(r);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Restores one record written by {@link #capture} at snapshot format {@code version} into the
   * target.
   *
   * @throws IllegalArgumentException if the version is unknown or the record cannot be read
   */
  void restore(String record, int version) {
    checkVersion(version);
    try {
      apply(RecallJson.MAPPER.readValue(record, Record.class));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("unreadable recall record: " + e.getOriginalMessage(), e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unreadable recall record: " + e.getMessage(), e);
    }
  }

  /** Restores one record from {@code len} UTF-8 bytes of {@code buf}, as {@link #restore} does. */
  void restore(byte[] buf, int off, int len, int version) {
    checkVersion(version);
    Record fast = reader.read(buf, off, len);
    try {
      apply(fast != null ? fast : RecallJson.MAPPER.readValue(buf, off, len, Record.class));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("unreadable recall record: " + e.getOriginalMessage(), e);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e); // reading a byte array does no I/O
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unreadable recall record: " + e.getMessage(), e);
    }
  }

  private static void checkVersion(int version) {
    if (version < OLDEST || version > VERSION) {
      throw new IllegalArgumentException(
          RecallLayer.NAME
              + " snapshot records of version "
              + version
              + " are unknown; this build reads "
              + OLDEST
              + " to "
              + VERSION);
    }
  }

  private void apply(Record r) {
    if (r.ns() != null && (r.nodes() != null || r.edges() != null)) {
      sizes(r);
      return;
    }
    if (r.ns() == null || r.at() == null) {
      throw new IllegalArgumentException("a record needs 'ns' and 'at'");
    }
    if (r.version() == null || r.version() < 1) {
      throw new IllegalArgumentException("a record needs a positive 'version'");
    }
    int v = r.version();
    Namespace ns = namespace(r.ns());
    boolean removed = Boolean.TRUE.equals(r.removed()); // absent: a put
    if (r.node() != null) {
      if (removed) {
        target.removeNode(ns, r.node().id(), v, r.at());
      } else {
        target.putNode(ns, r.node(), v, r.at());
      }
    } else if (r.edge() != null) {
      if (removed) {
        target.removeEdge(ns, r.edge().key(), v, r.at());
      } else if (r.fromNode() != null && r.toNode() != null) {
        target.putEdge(ns, r.edge(), v, r.at(), r.fromNode(), r.toNode());
      } else {
        target.putEdge(ns, r.edge(), v, r.at());
      }
    } else {
      throw new IllegalArgumentException("a record needs a 'node' or an 'edge'");
    }
  }

  /** A namespace's sizes: its tables are made that large before its records come. */
  private void sizes(Record r) {
    if (r.version() != null || r.at() != null || r.node() != null || r.edge() != null) {
      throw new IllegalArgumentException("a sizes record holds only 'ns', 'nodes' and 'edges'");
    }
    if (r.nodes() == null || r.edges() == null || r.nodes() < 0 || r.edges() < 0) {
      throw new IllegalArgumentException("a sizes record needs 'nodes' and 'edges', 0 or more");
    }
    target.reserve(namespace(r.ns()), r.nodes(), r.edges());
  }

  private Namespace namespace(String text) {
    if (!text.equals(lastNsText)) {
      lastNs = Namespace.of(text);
      lastNsText = text;
    }
    return lastNs;
  }
}
