package dev.loci.recall;

import dev.loci.recall.spi.EmbeddingProvider;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hashing model, whose calls for a batch of more than one text wait at a gate while it is
 * closed (a query is one text; an ingest's nodes come in batches), so that a test can see whether a
 * caller was answered before or after the model ran. Counts the texts it embedded.
 */
public final class GatedEmbeddingProvider implements EmbeddingProvider {
  private final EmbeddingProvider model = HashingEmbeddingProvider.create();

  /** The texts embedded so far. */
  public final AtomicInteger texts = new AtomicInteger();

  /** Counted down when a batch first reaches the gate. */
  public final CountDownLatch waiting = new CountDownLatch(1);

  /** Closed (count 1) until the test opens it; batches wait up to 60 s. */
  public final CountDownLatch gate = new CountDownLatch(1);

  @Override
  public String modelId() {
    return model.modelId();
  }

  @Override
  public int dimension() {
    return model.dimension();
  }

  @Override
  public List<float[]> embedDocuments(List<String> batch) {
    waiting.countDown();
    try {
      gate.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    texts.addAndGet(batch.size());
    return model.embedDocuments(batch);
  }

  /** Waits up to 30 s for {@code count} texts to be embedded; returns how many were. */
  public int awaitTexts(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (texts.get() < count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return texts.get();
  }
}
