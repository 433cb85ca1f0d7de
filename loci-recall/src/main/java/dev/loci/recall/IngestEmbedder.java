package dev.loci.recall;

import dev.loci.Namespace;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Computes the vectors of what an ingest wrote after its caller was answered, on one daemon thread:
 * the HTTP route {@code POST ingest} and the MCP tool {@code ingest} answer once their batches are
 * durable and applied (a document of 2,000 new texts would otherwise wait seconds for the model),
 * and the next recall still finds every node, since recall embeds whatever is still missing before
 * it searches ({@link RecallMemory#recall}). Namespaces asked for again while queued are embedded
 * once; each is embedded until no vector is missing, so nodes written meanwhile are included. The
 * thread stops when nothing is queued and starts again on the next request. Vectors are derived
 * data: a failure (the instance closing, a full disk, a namespace whose content must not reach a
 * remote model) is logged and leaves the nodes to the next recall, never to the ingest's caller,
 * whose write already succeeded. {@link #close} drops what is queued and waits for the pass under
 * way, so that nothing embeds into a closed instance.
 */
public final class IngestEmbedder implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(IngestEmbedder.class.getName());

  /** How long {@link #close} waits for the pass under way. */
  public static final java.time.Duration CLOSE_WAIT = java.time.Duration.ofSeconds(30);

  private final RecallMemory recall;
  private final Set<Namespace> queued = new LinkedHashSet<>(); // guarded by this
  private Thread worker; // guarded by this; null while nothing is queued
  private boolean closed; // guarded by this

  /** An embedder for the nodes {@code recall} ingests; nothing runs until {@link #embedLater}. */
  public IngestEmbedder(RecallMemory recall) {
    this.recall = recall;
  }

  /** Queues {@code namespaces} to be embedded after the caller's response. */
  public synchronized void embedLater(Collection<Namespace> namespaces) {
    if (closed) {
      return;
    }
    queued.addAll(namespaces);
    if (worker == null && !queued.isEmpty()) {
      worker = new Thread(this::run, "loci-ingest-embedder");
      worker.setDaemon(true);
      worker.start();
    }
  }

  /** Whether a namespace is queued or being embedded (for tests and health). */
  public synchronized boolean busy() {
    return worker != null;
  }

  private void run() {
    while (true) {
      Namespace ns;
      synchronized (this) {
        Iterator<Namespace> it = queued.iterator();
        if (!it.hasNext()) {
          worker = null;
          return;
        }
        ns = it.next();
        it.remove();
      }
      try {
        recall.embed(ns, RecallMemory.Progress.NONE);
      } catch (RuntimeException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "vectors of what was ingested into " + ns + " left to the next recall: " + e);
      }
    }
  }

  /**
   * Drops what is queued and waits, up to {@code CLOSE_WAIT}, for the namespace being embedded: a
   * server calls it after requests drained and before it closes the provider and the data
   * directory.
   */
  @Override
  public void close() {
    Thread running;
    synchronized (this) {
      closed = true;
      queued.clear();
      running = worker;
    }
    if (running != null) {
      try {
        running.join(CLOSE_WAIT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
