package dev.loci.recall.internal;

import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.ProperNouns;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entity nodes for one conversation: the names {@link ProperNouns} finds in what the turns say
 * (learned over the conversation's own turns; the speaker's name before the colon is not part of
 * what a turn says), one node of type {@value #TYPE} per name held by at least two turns, and a
 * {@code mentions} edge both ways between it and each turn naming it. A name held by one turn links
 * nothing, so it gets no node. Entity nodes carry the name as their text and the attribute {@code
 * entity}; their ids start with {@value #PREFIX}, which no LoCoMo turn id does.
 */
public final class EntityLinks {
  /** The type of entity nodes. */
  public static final String TYPE = "entity";

  /** How entity node ids start. */
  public static final String PREFIX = "entity:";

  private EntityLinks() {}

  /** Whether {@code id} names an entity node. */
  public static boolean isEntity(String id) {
    return id.startsWith(PREFIX);
  }

  /**
   * Adds to {@code nodesOut} an entity node per name that two or more of {@code turns} mention, and
   * to {@code edgesOut} the {@code mentions} edges of weight {@code weight}.
   */
  static void link(
      List<MemoryNode> turns, List<MemoryNode> nodesOut, List<MemoryEdge> edgesOut, double weight) {
    List<String> said = turns.stream().map(EntityLinks::said).toList();
    ProperNouns names = ProperNouns.learn(said);
    Map<String, List<String>> holders = new LinkedHashMap<>();
    for (int i = 0; i < turns.size(); i++) {
      for (String name : names.find(said.get(i))) {
        holders.computeIfAbsent(name, n -> new ArrayList<>()).add(turns.get(i).id());
      }
    }
    holders.forEach(
        (name, ids) -> {
          if (ids.size() < 2) {
            return;
          }
          String id = PREFIX + name;
          nodesOut.add(MemoryNode.builder(id, TYPE, name).attribute("entity", name).build());
          for (String turn : ids) {
            edgesOut.add(MemoryEdge.of(turn, id, "mentions", weight).bothWays());
          }
        });
  }

  /** What a turn says: its text after the speaker's {@code name: }. */
  static String said(MemoryNode turn) {
    String text = turn.content();
    int colon = text.indexOf(": ");
    return colon < 0 ? text : text.substring(colon + 2);
  }
}
