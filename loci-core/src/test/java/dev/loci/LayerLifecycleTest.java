package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
  static final class Recording implements Layer {
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
}
