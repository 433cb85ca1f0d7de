package dev.loci.recall;

import dev.loci.InvalidRequestException;
import dev.loci.LimitExceededException;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.recall.internal.RecallLayer;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.ContentRedaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * How {@link RecallMemory} ingests: it reads each document with its pack within the {@link
 * IngestLimits}, names the document's subjects on every node and redacts as the namespace redacts
 * nodes, all before anything is written (a document that cannot be ingested fails first); then it
 * writes each graph in journal batches of at most {@link RecallMemory#INGEST_CHUNK} records.
 */
final class Ingester {
  private final CommandExecutor engine;
  private final RecallLayer layer;
  private final String actor;
  private final IngestLimits limits;
  private final dev.loci.Redaction redaction;

  Ingester(
      CommandExecutor engine,
      RecallLayer layer,
      String actor,
      IngestLimits limits,
      dev.loci.Redaction redaction) {
    this.engine = engine;
    this.layer = layer;
    this.actor = actor;
    this.limits = limits;
    this.redaction = redaction;
  }

  /** The text of {@code file}, checked to be UTF-8. */
  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new NotFoundException("path", "no file " + file);
    } catch (java.nio.charset.MalformedInputException e) {
      throw new InvalidRequestException("path", file + " is not UTF-8 text");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads every document with {@code pack} into {@code scope.root()}: a document the pack cannot
   * read, a path given twice, or a document that would write a namespace outside {@code scope}
   * fails the call.
   *
   * @throws InvalidRequestException naming {@code documents[i].path} (or the field the pack names,
   *     under {@code documents[i].}), or {@code documents[i]} for a namespace outside the scope
   */
  List<Ingestion> readAll(NamespaceScope scope, DomainPack pack, List<SourceDocument> documents) {
    Namespace ns = scope.root();
    if (documents.size() > limits.documentsPerRequest()) {
      throw new LimitExceededException(
          "documents",
          "ingest_documents_per_request",
          false,
          "expected at most "
              + limits.documentsPerRequest()
              + " documents, found "
              + documents.size());
    }
    List<Ingestion> read = new ArrayList<>(documents.size());
    Set<String> paths = new HashSet<>();
    for (int i = 0; i < documents.size(); i++) {
      SourceDocument d = documents.get(i);
      if (!paths.add(d.path())) {
        throw new InvalidRequestException(
            "documents[" + i + "].path", "'" + d.path() + "' is given twice");
      }
      try {
        Ingestion ingestion = bounded(ns, "documents[" + i + "].", d, pack);
        for (Ingestion.Graph g : ingestion.graphs()) {
          if (g.childLabel().isPresent() && !scope.descendants()) {
            throw new InvalidRequestException(
                "documents[" + i + "]",
                "'"
                    + d.path()
                    + "' writes namespace "
                    + ns.value()
                    + "."
                    + g.childLabel().get()
                    + ", outside the scope "
                    + scope
                    + "; widen the scope to "
                    + ns.value()
                    + ".*");
          }
        }
        read.add(ingestion);
      } catch (InvalidRequestException e) {
        if (e.field().startsWith("documents[")) {
          throw e;
        }
        InvalidRequestException named =
            new InvalidRequestException(
                "documents[" + i + "]." + e.field(),
                e.getMessage().substring(e.field().length() + 2));
        named.initCause(e);
        throw named;
      }
    }
    return read;
  }

  /**
   * Reads {@code d} with {@code pack} within the ingest limits: its bytes before the pack parses
   * it, the units and edges it would write after, before anything is written.
   *
   * @throws LimitExceededException naming {@code <prefix>text} and the limit
   */
  Ingestion bounded(Namespace ns, String prefix, SourceDocument d, DomainPack pack) {
    long bytes = utf8Length(d.text());
    if (bytes > limits.bytesPerDocument()) {
      throw new LimitExceededException(
          prefix + "text",
          "ingest_bytes_per_document",
          true,
          "'" + d.path() + "' has " + bytes + " bytes, more than " + limits.bytesPerDocument());
    }
    Ingestion ingestion = redacted(named(pack.read(d), d.subjectIds(), prefix + "subject_ids"), ns);
    long units = ingestion.graphs().stream().mapToLong(g -> g.nodes().size()).sum();
    long edges = ingestion.graphs().stream().mapToLong(g -> g.edges().size()).sum();
    if (units > limits.unitsPerDocument()) {
      throw new LimitExceededException(
          prefix + "text",
          "ingest_units_per_document",
          false,
          "'"
              + d.path()
              + "' would write "
              + units
              + " units, more than "
              + limits.unitsPerDocument());
    }
    if (edges > limits.edgesPerDocument()) {
      throw new LimitExceededException(
          prefix + "text",
          "ingest_edges_per_document",
          false,
          "'"
              + d.path()
              + "' would write "
              + edges
              + " edges, more than "
              + limits.edgesPerDocument());
    }
    return ingestion;
  }

  /**
   * {@code read} with every node's content and attribute values redacted as {@code ns} redacts
   * nodes (off by default; a child namespace a conversation writes follows {@code ns}'s policy).
   */
  private Ingestion redacted(Ingestion read, Namespace ns) {
    Optional<UnaryOperator<String>> r = redaction.redactor(ns, ContentRedaction.NODE);
    if (r.isEmpty()) {
      return read;
    }
    List<Ingestion.Graph> graphs = new ArrayList<>(read.graphs().size());
    for (Ingestion.Graph g : read.graphs()) {
      graphs.add(
          new Ingestion.Graph(
              g.childLabel(), g.nodes().stream().map(n -> redacted(r, n)).toList(), g.edges()));
    }
    return new Ingestion(graphs, read.skipped());
  }

  /** {@code n} with its content and attribute values redacted by {@code r}, if any. */
  static MemoryNode redacted(Optional<UnaryOperator<String>> r, MemoryNode n) {
    if (r.isEmpty()) {
      return n;
    }
    String content = r.get().apply(n.content());
    Map<String, String> attributes = new java.util.TreeMap<>();
    n.attributes().forEach((k, v) -> attributes.put(k, r.get().apply(v)));
    if (content.equals(n.content()) && attributes.equals(n.attributes())) {
      return n;
    }
    return n.withContent(content, attributes);
  }

  /** {@code read} with every node naming {@code subjects} too (as it is when there are none). */
  private static Ingestion named(Ingestion read, List<String> subjects, String field) {
    if (subjects.isEmpty()) {
      return read;
    }
    dev.loci.SubjectIds.check(field, subjects);
    List<Ingestion.Graph> graphs = new ArrayList<>(read.graphs().size());
    for (Ingestion.Graph g : read.graphs()) {
      List<MemoryNode> nodes = new ArrayList<>(g.nodes().size());
      for (MemoryNode n : g.nodes()) {
        LinkedHashSet<String> all = new LinkedHashSet<>(n.subjectIds());
        all.addAll(subjects);
        nodes.add(n.withSubjectIds(List.copyOf(all)));
      }
      graphs.add(new Ingestion.Graph(g.childLabel(), nodes, g.edges()));
    }
    return new Ingestion(graphs, read.skipped());
  }

  private static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  IngestReport write(
      Namespace ns,
      DomainPack pack,
      SourceDocument document,
      Ingestion ingestion,
      RecallMemory.Progress progress,
      java.util.function.Consumer<Namespace> nodesWritten) {
    List<IngestReport.Skipped> skipped = new ArrayList<>(ingestion.skipped());
    List<Namespace> namespaces = new ArrayList<>();
    int total = 0;
    for (Ingestion.Graph g : ingestion.graphs()) {
      total += g.nodes().size() + g.edges().size();
    }
    int done = 0;
    int nodes = 0;
    int edges = 0;
    int written = 0;
    int removed = 0;
    int batches = 0;
    for (Ingestion.Graph g : ingestion.graphs()) {
      Namespace target = g.childLabel().map(l -> Namespace.of(ns.value() + "." + l)).orElse(ns);
      namespaces.add(target);
      Set<String> ids = new LinkedHashSet<>();
      g.nodes().forEach(n -> ids.add(n.id()));
      Set<MemoryEdge.Key> keys = new HashSet<>();
      g.edges().forEach(e -> keys.add(e.key()));
      RecallLayer.Sync sync = new RecallLayer.Sync(document.path(), ids, keys);
      int records = g.nodes().size() + g.edges().size();
      for (int from = 0; from < records || from == 0; from += RecallMemory.INGEST_CHUNK) {
        int to = Math.min(records, from + RecallMemory.INGEST_CHUNK);
        List<MemoryNode> chunkNodes = slice(g.nodes(), from, to, 0);
        List<MemoryEdge> chunkEdges = slice(g.edges(), from, to, g.nodes().size());
        Optional<RecallLayer.Sync> last = to == records ? Optional.of(sync) : Optional.empty();
        RecallLayer.Written w =
            engine.execute(
                target,
                actor,
                ctx ->
                    layer.decideWrite(
                        target, ctx.now(), chunkNodes, chunkEdges, List.of(), List.of(), last));
        if (w.written() + w.removed() > 0) {
          batches++;
        }
        if (!chunkNodes.isEmpty() && w.written() > 0) {
          nodesWritten.accept(target);
        }
        written += w.written();
        removed += w.removed();
        done += to - from;
        progress.advanced(document.path(), done, total);
      }
      nodes += g.nodes().size();
      edges += g.edges().size();
    }
    return new IngestReport(
        document.path(), pack.name(), namespaces, nodes, edges, written, removed, batches, skipped);
  }

  private static <T> List<T> slice(List<T> list, int from, int to, int offset) {
    int a = Math.max(0, Math.min(list.size(), from - offset));
    int b = Math.max(0, Math.min(list.size(), to - offset));
    return list.subList(a, b);
  }
}
