package dev.loci.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.loci.Damage;
import dev.loci.ImportReport;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.Trace;
import dev.loci.VerifyReport;
import dev.loci.postgres.JournalArchive;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints results either for people (one labelled block per trace) or, with {@code --json}, as one
 * line of JSON with snake_case fields. Traces are printed in their one public form, {@link
 * Trace#toJson()}.
 *
 * <p>Results go to stdout; warnings and skipped import lines to stderr, each prefixed {@code
 * loci:}.
 */
final class Output {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;

  Output(PrintWriter out, PrintWriter err, boolean json) {
    this.out = out;
    this.err = err;
    this.json = json;
  }

  /** Whether {@code --json} asked for machine-readable output. */
  boolean json() {
    return json;
  }

  /** Prints one trace. */
  void trace(Trace t) {
    if (json) {
      out.println(t.toJson());
    } else {
      traceBlock(t);
    }
  }

  /** Prints a revision chain, newest first, as a JSON array or consecutive blocks. */
  void history(List<Trace> chain) {
    if (json) {
      ArrayNode array = MAPPER.createArrayNode();
      chain.forEach(t -> array.addRawValue(traceNode(t)));
      print(array);
    } else {
      traceBlocks(chain);
    }
  }

  /** Prints a page of search results and the cursor for the next page. */
  void page(Page<Trace> page) {
    if (json) {
      ObjectNode node = MAPPER.createObjectNode();
      ArrayNode items = node.putArray("items");
      page.items().forEach(t -> items.addRawValue(traceNode(t)));
      page.nextCursor()
          .ifPresentOrElse(c -> node.put("next_cursor", c), () -> node.putNull("next_cursor"));
      print(node);
      return;
    }
    if (page.items().isEmpty()) {
      out.println("no traces");
    }
    traceBlocks(page.items());
    page.nextCursor().ifPresent(c -> out.printf("%nnext cursor: %s%n", c));
  }

  /** Prints what an import did; in text mode the skipped lines go to stderr. */
  void imported(Namespace ns, ImportReport report) {
    if (json) {
      ObjectNode node = MAPPER.createObjectNode();
      node.put("namespace", ns.value());
      node.put("lines", report.lines());
      node.put("applied", report.applied());
      ArrayNode skipped = node.putArray("skipped");
      for (ImportReport.Skipped s : report.skipped()) {
        skipped.addObject().put("line", s.line()).put("reason", s.reason());
      }
      print(node);
      return;
    }
    for (ImportReport.Skipped s : report.skipped()) {
      err.println("loci: line " + s.line() + " skipped: " + s.reason());
    }
    out.printf(
        "imported %d of %d lines into %s, %d skipped%n",
        report.applied(), report.lines(), ns, report.skipped().size());
  }

  /** Prints what an export to a file did. */
  void exported(Namespace ns, long count, Path file) {
    if (json) {
      print(
          MAPPER
              .createObjectNode()
              .put("namespace", ns.value())
              .put("exported", count)
              .put("out", file.toString()));
    } else {
      out.printf("exported %d traces from %s to %s%n", count, ns, file);
    }
  }

  /** Prints a verification report: the counts, every damage found and the verdict. */
  void verified(String where, VerifyReport report) {
    if (json) {
      ObjectNode node = MAPPER.createObjectNode();
      node.put("ok", report.ok());
      node.put("segments", report.segments());
      node.put("batches", report.batches());
      node.put("snapshots", report.snapshots());
      ArrayNode damage = node.putArray("damage");
      report.damage().forEach(d -> damage.add(damageNode(d)));
      print(node);
      return;
    }
    out.printf(
        "checked %s: %d segments, %d batches, %d snapshots%n",
        where, report.segments(), report.batches(), report.snapshots());
    report.damage().forEach(d -> out.println("  " + describe(d)));
    if (report.ok()) {
      out.println(report.damage().isEmpty() ? "ok" : "ok (warnings only, nothing committed lost)");
    } else {
      out.println("DAMAGED: committed data may be missing or unreadable");
    }
  }

  /** Prints what a compaction did. */
  void compacted(Loci.CompactReport report) {
    compacted(report, Optional.empty());
  }

  /**
   * Prints what a compaction did and, with {@code --archive}, what archiving the PostgreSQL journal
   * did and the registered servers that decided it (one JSON object with {@code --json}).
   */
  void compacted(Loci.CompactReport report, Optional<JournalArchive.Report> archived) {
    if (json) {
      ObjectNode node =
          MAPPER
              .createObjectNode()
              .put("snapshot_seq", report.snapshotSeq())
              .put("segments_deleted", report.segmentsDeleted());
      archived.ifPresent(
          a -> {
            node.put("archived_batches", a.moved()).put("archived_through", a.through());
            ArrayNode servers = node.putArray("servers");
            for (JournalArchive.Server s : a.servers()) {
              servers
                  .addObject()
                  .put("id", s.id())
                  .put("snapshot_seq", s.snapshotSeq())
                  .put("data_dir", s.dataDir())
                  .put("seen_at", s.seenAt().toString());
            }
          });
      print(node);
      return;
    }
    out.printf(
        "snapshot at seq %d, %d journal segments deleted%n",
        report.snapshotSeq(), report.segmentsDeleted());
    archived.ifPresent(
        a -> {
          out.printf(
              "%d batches archived; every batch through seq %d is in loci_batch_archive%n",
              a.moved(), a.through());
          for (JournalArchive.Server s : a.servers()) {
            out.printf(
                "  server %s: snapshot at seq %d (%s, registered %s)%n",
                s.id(), s.snapshotSeq(), s.dataDir(), s.seenAt());
          }
          if (a.servers().isEmpty()) {
            out.println("  no server registered yet: each registers at its 'loci compact'");
          }
        });
  }

  /** Prints the tokens of a server configuration: id, role and namespaces, never the hash. */
  void credentials(List<dev.loci.server.Credential> credentials) {
    if (json) {
      ArrayNode items = MAPPER.createArrayNode();
      for (dev.loci.server.Credential c : credentials) {
        ObjectNode node = items.addObject();
        node.put("id", c.id());
        node.put("role", c.role().label());
        ArrayNode ns = node.putArray("namespaces");
        c.grants().forEach(g -> ns.add(g.toString()));
      }
      print(MAPPER.createObjectNode().set("items", items));
      return;
    }
    if (credentials.isEmpty()) {
      out.println("no tokens: every request is allowed (loopback only)");
      return;
    }
    out.printf("%-24s %-7s %s%n", "ID", "ROLE", "NAMESPACES");
    for (dev.loci.server.Credential c : credentials) {
      List<String> grants = c.grants().stream().map(Object::toString).toList();
      out.printf("%-24s %-7s %s%n", c.id(), c.role().label(), String.join(", ", grants));
    }
  }

  /** Prints an informational line to stderr, in either mode. */
  void note(String message) {
    err.println("loci: " + message);
  }

  /** Prints a warning line to stderr, in either mode. */
  void warning(String message) {
    err.println("loci: warning: " + message);
  }

  /** One line naming the damage, its file, byte offset and sequence number. */
  static String describe(Damage d) {
    return d.kind().name().toLowerCase(Locale.ROOT)
        + " in "
        + d.file()
        + (d.offset() >= 0 ? " at byte " + d.offset() : "")
        + (d.seq().isPresent() ? " (seq " + d.seq().getAsLong() + ")" : "")
        + ": "
        + d.detail();
  }

  private void traceBlocks(List<Trace> traces) {
    for (int i = 0; i < traces.size(); i++) {
      if (i > 0) {
        out.println();
      }
      traceBlock(traces.get(i));
    }
  }

  private void traceBlock(Trace t) {
    field("uid", t.uid());
    field("namespace", t.namespace().value());
    field("created", t.createdAt().toString());
    field("updated", t.updatedAt().toString());
    field("retired", t.retired() ? "yes" : "no");
    field("replay count", Integer.toString(t.replayCount()));
    field("tags", t.tags().isEmpty() ? "-" : String.join(", ", t.tags()));
    t.predecessorUid().ifPresent(p -> field("predecessor", p));
    field("content", t.content());
  }

  private void field(String label, String value) {
    out.printf("%-13s %s%n", label, value);
  }

  private static RawValue traceNode(Trace t) {
    return new RawValue(t.toJson());
  }

  private static ObjectNode damageNode(Damage d) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("kind", d.kind().name().toLowerCase(Locale.ROOT));
    node.put("lossy", d.kind().lossy());
    node.put("file", d.file().toString());
    if (d.offset() >= 0) {
      node.put("offset", d.offset());
    }
    d.seq().ifPresent(seq -> node.put("seq", seq));
    node.put("detail", d.detail());
    return node;
  }

  /** Prints a line of JSON text as it is. */
  void jsonLine(String json) {
    out.println(json);
  }

  /** The result stream, for output written in a format of its own. */
  PrintWriter writer() {
    return out;
  }

  private void print(JsonNode node) {
    try {
      out.println(MAPPER.writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
