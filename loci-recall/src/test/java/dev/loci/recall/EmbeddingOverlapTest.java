package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RecallMemory#ingestEmbedding}: the model works while the journal is written. */
class EmbeddingOverlapTest {
  // a unit of a numbered section writes its node and about nine edges: more than three batches of
  // RecallMemory.INGEST_CHUNK records, so that later batches are written while the first embeds
  private static final int UNITS = 8_000;

  private static final Namespace NS = Namespace.of("acme");
  private static final HashingEmbeddingProvider HASHING = HashingEmbeddingProvider.create();

  @TempDir Path tmp;

  /** Hashing vectors; remembers every text and releases {@link #started} on its first call. */
  private static final class Watching implements EmbeddingProvider {
    final List<String> texts = Collections.synchronizedList(new ArrayList<>());
    final CountDownLatch started = new CountDownLatch(1);
    volatile RuntimeException failure;

    @Override
    public String modelId() {
      return HASHING.modelId();
    }

    @Override
    public int dimension() {
      return HASHING.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> batch) {
      started.countDown();
      if (failure != null) {
        throw failure;
      }
      texts.addAll(batch);
      return HASHING.embedDocuments(batch);
    }
  }

  private static String numbered(int units) {
    return IngestTest.numbered(units);
  }

  /** Ingests {@code file} with the contract pack, quietly. */
  private static IngestReport ingest(RecallMemory recall, Path file) {
    return recall.ingestEmbedding(
        NS,
        DomainPacks.named("markdown:contract"),
        file,
        RecallMemory.Progress.NONE,
        RecallMemory.Progress.NONE);
  }

  @Test
  void ingestEmbedding_embedsTheFirstBatchWhileLaterBatchesAreWritten_andLeavesNothingMissing()
      throws Exception {
    Path file = Files.writeString(tmp.resolve("big.md"), numbered(UNITS));
    Watching model = new Watching();
    AtomicBoolean embeddingBeforeTheLastBatch = new AtomicBoolean();
    try (Loci loci =
        Loci.builder().dataDir(tmp.resolve("data")).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci, model);
      IngestReport report =
          recall.ingestEmbedding(
              NS,
              DomainPacks.named("markdown:contract"),
              file,
              (source, done, total) -> {
                if (done == RecallMemory.INGEST_CHUNK) {
                  // the first batch (INGEST_CHUNK records) is written: its nodes are being embedded
                  // before
                  // the writer goes on; an ingest that embeds only after writing never gets here
                  try {
                    embeddingBeforeTheLastBatch.set(model.started.await(60, TimeUnit.SECONDS));
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }
              },
              RecallMemory.Progress.NONE);

      assertThat(report.batches()).isGreaterThan(2);
      assertThat(embeddingBeforeTheLastBatch).isTrue();
      // every node got its vector, each text through the model once
      assertThat(recall.embed(NS, RecallMemory.Progress.NONE)).isZero();
      assertThat(model.texts).hasSize(UNITS).doesNotHaveDuplicates();
      assertThat(model.texts)
          .containsAll(recall.nodes(NS).stream().map(MemoryNode::content).toList());
      long seq = loci.lastSeq();

      // the same file again writes nothing and embeds nothing
      ingest(recall, file);
      assertThat(loci.lastSeq()).isEqualTo(seq);
      assertThat(model.texts).hasSize(UNITS);
    }
  }

  @Test
  void ingestEmbedding_modelFails_theJournalHoldsTheIngest_andTheFailureReachesTheCaller() {
    Path file = tmp.resolve("big.md");
    Watching model = new Watching();
    model.failure = new IllegalStateException("model down");
    try (Loci loci =
        Loci.builder().dataDir(tmp.resolve("data")).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci, model);
      assertThatThrownBy(
              () -> {
                Files.writeString(file, numbered(1500));
                ingest(recall, file);
              })
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("model down");
      assertThat(recall.nodes(NS)).hasSize(1500);

      // the model is back: a plain embed finds every node still missing its vector
      model.failure = null;
      assertThat(recall.embed(NS, RecallMemory.Progress.NONE)).isEqualTo(1500);
    }
  }

  @Test
  void ingestEmbedding_missingFile_failsNamingPath_andWritesNothing() {
    Watching model = new Watching();
    try (Loci loci =
        Loci.builder().dataDir(tmp.resolve("data")).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci, model);
      long seq = loci.lastSeq();
      assertThatThrownBy(() -> ingest(recall, tmp.resolve("none.md")))
          .isInstanceOf(NotFoundException.class)
          .hasMessageContaining("path");
      assertThat(loci.lastSeq()).isEqualTo(seq);
      assertThat(model.texts).isEmpty();
    }
  }
}
