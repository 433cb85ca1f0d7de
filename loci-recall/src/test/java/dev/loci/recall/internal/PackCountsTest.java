package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packs of a namespace's live nodes (which choose recall's default weights) follow every node
 * change once counted: a put that brings a new pack, one that moves a node to another pack, a
 * removal of a pack's last node, and a reopen that counts them again.
 */
class PackCountsTest {
  private static final Namespace NS = Namespace.of("packs");
  @TempDir Path dir;

  private static MemoryNode node(String id, String pack) {
    MemoryNode.Builder b = MemoryNode.builder(id, "unit", "text of " + id);
    return pack == null ? b.build() : b.attribute("pack", pack).build();
  }

  private static Set<String> packs(Loci loci) {
    RecallLayer layer = loci.layer(RecallLayer.class);
    return loci.executor().read(() -> layer.packs(NS));
  }

  @Test
  void packsFollowPutsMovesAndRemovals_andAReopenCountsTheSame() {
    try (Loci loci = Loci.builder().dataDir(dir).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci);
      recall.putNode(NS, node("a1", "markdown:contract"));
      assertThat(packs(loci)).containsExactly("markdown:contract"); // counted now
      recall.putNode(NS, node("a2", "markdown:contract"));
      recall.putNode(NS, node("b1", "conversation"));
      recall.putNode(NS, node("n1", null));
      assertThat(packs(loci)).containsExactlyInAnyOrder("markdown:contract", "conversation", "");

      recall.removeNode(NS, "b1");
      assertThat(packs(loci)).containsExactlyInAnyOrder("markdown:contract", "");
      recall.putNode(NS, node("a1", "markdown:runbook")); // a2 still holds markdown:contract
      assertThat(packs(loci))
          .containsExactlyInAnyOrder("markdown:contract", "markdown:runbook", "");
      recall.putNode(NS, node("a2", "markdown:runbook"));
      recall.removeNode(NS, "n1");
      assertThat(packs(loci)).containsExactly("markdown:runbook");
      recall.putNode(NS, node("b1", "conversation")); // a removed id put again
      assertThat(packs(loci)).containsExactlyInAnyOrder("markdown:runbook", "conversation");
    }
    try (Loci loci = Loci.builder().dataDir(dir).durability(Durability.none()).open()) {
      RecallMemory.of(loci);
      assertThat(packs(loci)).containsExactlyInAnyOrder("markdown:runbook", "conversation");
    }
  }
}
