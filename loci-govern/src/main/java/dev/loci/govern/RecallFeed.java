package dev.loci.govern;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.GraphFeed;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.spi.Command;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The engine as the governed facades use it when the instance has a recall graph: every command
 * that writes memories or entities also puts their recall nodes ({@link GovernedRecall#node}) and
 * edges, in the same journal batch. So a promote, a capture or a supersede is in the graph the
 * moment it is acknowledged, and replay rebuilds the same graph from the same batches; the journal
 * stays the only source ({@link GovernedRecall#sync} only repairs records written before this, or
 * by an instance without recall).
 *
 * <p>Only the newest record of each id in a batch is projected. Thread-safe.
 */
final class RecallFeed implements CommandExecutor {
  private final CommandExecutor engine;
  private final GraphFeed feed;

  private RecallFeed(CommandExecutor engine, GraphFeed feed) {
    this.engine = engine;
    this.feed = feed;
  }

  /** {@code loci}'s engine, feeding its recall graph if it has one. */
  static CommandExecutor of(Loci loci) {
    CommandExecutor engine = loci.executor();
    return GraphFeed.of(loci).<CommandExecutor>map(f -> new RecallFeed(engine, f)).orElse(engine);
  }

  @Override
  public <R> R execute(Namespace namespace, String actor, Command<R> command) {
    return engine.execute(
        namespace,
        actor,
        ctx -> {
          Decision<R> d = command.decide(ctx);
          Map<String, MemoryNode> nodes = new LinkedHashMap<>();
          Map<String, List<MemoryEdge>> edges = new LinkedHashMap<>();
          for (Event e : d.events()) {
            Object v = e.decoded().orElse(null);
            if (v instanceof Memory m) {
              nodes.put(GovernedRecall.nodeId(m), GovernedRecall.node(m));
              edges.put(GovernedRecall.nodeId(m), GovernedRecall.edges(m));
            } else if (v instanceof Entity x) {
              nodes.put(GovernedRecall.nodeId(x), GovernedRecall.node(x));
              edges.put(GovernedRecall.nodeId(x), GovernedRecall.edges(x));
            }
          }
          if (nodes.isEmpty()) {
            return d;
          }
          List<MemoryEdge> links = new ArrayList<>();
          edges.values().forEach(links::addAll);
          Decision<Integer> g = feed.decide(ctx, namespace, new ArrayList<>(nodes.values()), links);
          if (g.events().isEmpty()) {
            return d;
          }
          List<Event> events = new ArrayList<>(d.events());
          events.addAll(g.events());
          Set<String> keys = new HashSet<>(d.keys());
          keys.addAll(g.keys());
          return new Decision<>(events, keys, d.result());
        });
  }

  @Override
  public <R> R read(Supplier<R> read) {
    return engine.read(read);
  }
}
