package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.MemoryState;
import dev.loci.recall.PalaceMemory;
import dev.loci.recall.PalaceSpace;
import dev.loci.recall.internal.LifecycleRules.Life;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads of the palace: the graph's nodes seen through {@link PalaceBridge} with the lifecycle
 * {@link PalaceLayer} records, decayed to the instant of reading. Call under the engine's shared
 * lock. Stateless beyond the two layers; thread-safe under that lock.
 */
public final class PalaceView {
  private final RecallLayer graph;
  private final PalaceLayer palace;

  /** A view over the two layers. */
  public PalaceView(RecallLayer graph, PalaceLayer palace) {
    this.graph = graph;
    this.palace = palace;
  }

  /** The recall layer. */
  public RecallLayer graph() {
    return graph;
  }

  /** The palace layer. */
  public PalaceLayer palace() {
    return palace;
  }

  /** The stability of {@code n} at {@code now}, from its recorded life. */
  public double stability(Namespace ns, MemoryNode n, Life life, Instant now) {
    Instant born = graph.firstPut(ns, n.id()).orElse(now);
    return LifecycleRules.stability(
        life, born, palace.halfLife(ns), LifecycleRules.kindFactor(PalaceBridge.kind(n)), now);
  }

  /** The lifecycle of {@code n} read at {@code now}. */
  public MemoryState state(Namespace ns, MemoryNode n, Instant now) {
    Life life = palace.life(ns, n.id());
    return new MemoryState(
        life.state(), life.reinforcements(), stability(ns, n, life, now), life.lastAccess());
  }

  /** The live node {@code id} as a palace memory, read at {@code now}. */
  public Optional<PalaceMemory> memory(Namespace ns, String id, Instant now) {
    return graph.node(ns, id).map(n -> memory(ns, n, now));
  }

  /** {@code n} as a palace memory, read at {@code now}. */
  public PalaceMemory memory(Namespace ns, MemoryNode n, Instant now) {
    return PalaceBridge.memory(
        n, graph.edgesOf(ns, n.id()), state(ns, n, now), palace.route(ns, n.id()));
  }

  /** Every space of {@code ns}, sorted by id. */
  public List<PalaceSpace> spaces(Namespace ns) {
    return PalaceBridge.spaces(graph.nodes(ns));
  }

  /** The space {@code id} of {@code ns}, if any memory is located in it or below it. */
  public Optional<PalaceSpace> space(Namespace ns, String id) {
    return spaces(ns).stream().filter(s -> s.id().equals(id)).findFirst();
  }

  /** The memories located directly in space {@code id}, in the order they were first put. */
  public List<PalaceMemory> memoriesIn(Namespace ns, String id, Instant now) {
    List<PalaceMemory> out = new ArrayList<>();
    for (MemoryNode n : graph.nodes(ns)) {
      if (PalaceBridge.spaceId(n).filter(id::equals).isPresent()) {
        out.add(memory(ns, n, now));
      }
    }
    return out;
  }
}
