package dev.loci.recall;

import dev.loci.Egress;
import dev.loci.Namespace;
import dev.loci.recall.internal.RecallLayer;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.spi.CommandExecutor;
import java.util.List;

/**
 * The vectors {@link RecallMemory}'s model still lacks, computed outside the engine's lock: the
 * lock is held only to read the nodes and to store the vectors, never while the model runs. A
 * remote model never sees content that an egress policy keeps local.
 */
final class PendingVectors {
  private final CommandExecutor engine;
  private final RecallLayer layer;
  private final EmbeddingProvider embeddings;
  private final Egress egress;

  PendingVectors(
      CommandExecutor engine, RecallLayer layer, EmbeddingProvider embeddings, Egress egress) {
    this.engine = engine;
    this.layer = layer;
    this.embeddings = embeddings;
    this.egress = egress;
  }

  /**
   * Whether {@code ns}'s content may go to the model: a write in a namespace that must stay local
   * still succeeds, unembedded, and only recall that needs the remote model is refused.
   */
  boolean mayEmbed(Namespace ns) {
    return mayEmbed(ns, List.of());
  }

  /** Whether content of {@code ns} naming {@code subjects} may go to the model. */
  private boolean mayEmbed(Namespace ns, List<String> subjects) {
    try {
      checkEgress(ns, subjects);
      return true;
    } catch (dev.loci.EgressRefusedException e) {
      return false;
    }
  }

  /** Refuses to send {@code ns}'s content to a remote model when a policy keeps it local. */
  void checkEgress(Namespace ns) {
    checkEgress(ns, List.of());
  }

  private void checkEgress(Namespace ns, List<String> subjects) {
    if (!embeddings.local()) {
      egress.check(ns, subjects, "the remote embedding model " + embeddings.modelId());
    }
  }

  /**
   * {@link RecallMemory#embed}, holding the engine's lock only to read the nodes and to store the
   * vectors, never while the model runs. {@code untilNone}: until no vector is missing, nodes
   * written meanwhile included; otherwise only the nodes missing when it began, so that writes
   * arriving faster than the model embeds cannot hold a recall or a put forever (what they wrote is
   * left to the next call).
   */
  int embedPending(Namespace ns, RecallMemory.Progress progress, boolean untilNone) {
    checkEgress(ns);
    int done = 0;
    while (true) {
      // a node naming a subject whose content stays local is left unembedded by a remote model
      List<RecallLayer.Missing> missing =
          engine.read(() -> layer.missingVectors(embeddings, ns, Integer.MAX_VALUE)).stream()
              .filter(m -> m.subjectIds().isEmpty() || mayEmbed(ns, m.subjectIds()))
              .toList();
      if (missing.isEmpty()) {
        return done;
      }
      int total = done + missing.size();
      for (int from = 0; from < missing.size(); from += RecallMemory.EMBED_BATCH) {
        List<RecallLayer.Missing> batch =
            missing.subList(from, Math.min(missing.size(), from + RecallMemory.EMBED_BATCH));
        List<float[]> vectors =
            embeddings.embedDocuments(batch.stream().map(RecallLayer.Missing::text).toList());
        engine.read(
            () -> {
              layer.addVectors(embeddings, ns, batch, vectors);
              return null;
            });
        done += batch.size();
        progress.advanced(ns.value(), done, total);
      }
      if (!untilNone) {
        return done;
      }
    }
  }
}
