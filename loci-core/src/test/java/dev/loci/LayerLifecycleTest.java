package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle hooks a layer with derived files relies on: the data directory before recovery, the
 * engine's applied sequence (batches of every layer) after recovery and after every write, and the
 * same sequence on close.
 */
class LayerLifecycleTest {
  @TempDir Path tmp;

  /** Records the hooks' calls; holds no state of its own. */
  static class Recording implements Layer {
    final List<String> calls = new ArrayList<>();

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public int snapshotVersion() {
      return 1;
    }

    @Override
    public Runnable prepare(JournalEntry entry, List<Event> events) {
      return () -> {};
    }

    @Override
    public Iterable<String> capture() {
      return List.of();
    }

    @Override
    public void restore(String record, int version) {}

    @Override
    public void clear() {}

    @Override
    public void attach(Path dataDir) {
      calls.add("attach " + dataDir.getFileName());
    }

    @Override
    public void recovered(long appliedSeq) {
      calls.add("recovered " + appliedSeq);
    }

    @Override
    public void applied(long appliedSeq) {
      calls.add("applied " + appliedSeq);
    }

    @Override
    public void close(long appliedSeq) {
      calls.add("close " + appliedSeq);
    }
  }

  @Test
  void hooks_acrossWritesOfOtherLayersSnapshotAndCompact_seeTheEngineAppliedSeq() {
    Path dir = tmp.resolve("data");
    Namespace ns = Namespace.of("hooks.test");
    Recording first = new Recording();
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).layer(() -> first).open()) {
      loci.traces().add(ns, "{\"n\":1}", List.of());
      loci.traces().add(ns, "{\"n\":2}", List.of());
      loci.compact();
      loci.traces().add(ns, "{\"n\":3}", List.of());
    }
    assertThat(first.calls)
        .containsExactly(
            "attach data", "recovered 0", "applied 1", "applied 2", "applied 3", "close 3");

    Recording second = new Recording();
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).layer(() -> second).open()) {
      assertThat(loci.lastSeq()).isEqualTo(3);
    }
    assertThat(second.calls).containsExactly("attach data", "recovered 3", "close 3");
  }

  @Test
  void settle_afterEachWrite_runsBeforeTheWriteReturnsAndLetsReadersIn() throws Exception {
    Namespace ns = Namespace.of("hooks.settle");
    List<String> seen = new ArrayList<>();
    Loci[] open = new Loci[1];
    Recording settling =
        new Recording() {
          @Override
          public void settle() {
            // a reader on another thread gets in: settle does not hold the exclusive lock
            String read =
                CompletableFuture.supplyAsync(() -> open[0].executor().read(() -> "read"))
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
            seen.add("settle " + read);
          }

          @Override
          public void applied(long appliedSeq) {
            seen.add("applied");
          }
        };
    try (Loci loci = Loci.builder().layer(() -> settling).open()) {
      open[0] = loci;
      loci.traces().add(ns, "{\"n\":1}", List.of());
      seen.add("returned");
      loci.traces().add(ns, "{\"n\":2}", List.of());
      seen.add("returned");
    }
    assertThat(seen)
        .containsExactly(
            "applied", "settle read", "returned", "applied", "settle read", "returned");
  }
}
