package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.embed.onnx.OnnxEmbeddingProvider;
import dev.loci.embed.onnx.OnnxModel;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.DomainPack;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The ingest rows of {@link EmbedBenchmark}: one document of numbered clauses ingested with the
 * {@code markdown:contract} pack into a fresh store with a durable journal, and every clause
 * embedded with the model (no cache), first by {@link RecallMemory#ingest} then {@link
 * RecallMemory#embed} (writing, then embedding), then by {@link RecallMemory#ingestEmbedding}
 * (embedding each journal batch's clauses while the next batch is written), taking turns.
 */
final class IngestOverlapBench {
  private static final Namespace NS = Namespace.of("bench.embed");

  private IngestOverlapBench() {}

  /** The median rows of both ways over {@code rounds}, the sequential one first. */
  static List<EmbedBenchmark.Row> run(
      OnnxModel model, Path workDir, List<String> clauses, int rounds, PrintStream log) {
    StringBuilder doc = new StringBuilder("# Terms\n\n");
    for (int i = 0; i < clauses.size(); i++) {
      doc.append(i + 1).append(". ").append(clauses.get(i)).append("\n\n");
    }
    Path file = workDir.resolve("embed-bench-ingest.md");
    List<EmbedBenchmark.Row> sequential = new ArrayList<>();
    List<EmbedBenchmark.Row> overlapped = new ArrayList<>();
    try (OnnxEmbeddingProvider onnx =
        OnnxEmbeddingProvider.create(model, OnnxEmbeddingProvider.DEFAULT_BATCH_SIZE)) {
      Files.writeString(file, doc);
      onnx.embedDocuments(clauses.subList(0, Math.min(64, clauses.size())));
      DomainPack pack = DomainPacks.named("markdown:contract");
      for (int round = 0; round < rounds; round++) {
        sequential.add(
            ingest(
                "write, then embed",
                workDir,
                onnx,
                clauses.size(),
                log,
                recall -> {
                  recall.ingest(NS, pack, file, RecallMemory.Progress.NONE);
                  recall.embed(NS, RecallMemory.Progress.NONE);
                }));
        overlapped.add(
            ingest(
                "embed while writing",
                workDir,
                onnx,
                clauses.size(),
                log,
                recall ->
                    recall.ingestEmbedding(
                        NS, pack, file, RecallMemory.Progress.NONE, RecallMemory.Progress.NONE)));
      }
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.of(EmbedBenchmark.median(sequential), EmbedBenchmark.median(overlapped));
  }

  private interface Work {
    void run(RecallMemory recall);
  }

  private static EmbedBenchmark.Row ingest(
      String name,
      Path workDir,
      OnnxEmbeddingProvider onnx,
      int clauses,
      PrintStream log,
      Work work) {
    Path data = workDir.resolve("embed-bench-ingest-data");
    delete(data);
    try (Loci loci = Loci.builder().dataDir(data).durability(Durability.always()).open()) {
      RecallMemory recall = RecallMemory.of(loci, onnx);
      EmbedBenchmark.Row row =
          EmbedBenchmark.measure(name, 0, () -> work.run(recall), clauses, log);
      int nodes = recall.nodes(NS).size();
      if (nodes != clauses || recall.embed(NS, RecallMemory.Progress.NONE) != 0) {
        throw new IllegalStateException(name + " left " + nodes + " nodes or vectors missing");
      }
      return row;
    } finally {
      delete(data);
    }
  }

  /** Deletes {@code dir} and everything under it, if it exists. */
  static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
