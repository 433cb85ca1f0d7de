package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class UnitStructureTest {
  static final String RUNBOOK =
      """
      # Orders backlog

      ## Mitigate

      1. Restart the queue consumers on every worker node.
      2. If the restart does not clear the backlog, fail over the broker to the standby replica.
      3. Flush the routing cache on the gateway nodes.
      4. After the failover and the cache flush, replay the dead letter messages in order.
      5. Never restart the consumers while a replay is running.

      ## Escalate

      6. Page the messaging on-call engineer because a growing backlog causes lost orders.
      """;

  static final String CONTRACT =
      """
      # Storage

      ## Delivery

      1. The provider shall deliver stored pallets within two business days of a release order.
      2. If the provider has not delivered within that period, the customer may claim a credit per late day.
      3. If the credit does not cover the losses of the customer, the customer may terminate.

      ## Liability

      4. The provider shall pay the replacement value of any pallet damaged in storage.
      5. Except where the damage results from the packaging of the customer: then the provider
         shall not pay for it.
      """;

  private static Ingestion.Graph read(String flavour, String text) {
    MarkdownPack pack =
        new MarkdownPack(
            flavour.equals("runbook")
                ? MarkdownPack.Flavour.RUNBOOK
                : MarkdownPack.Flavour.CONTRACT);
    return pack.read(new SourceDocument("d/x.md", text)).graphs().get(0);
  }

  private static List<String> edges(Ingestion.Graph g, String type) {
    return g.edges().stream()
        .filter(e -> e.edgeType().equals(type))
        .map(MemoryEdge::key)
        .map(k -> k.from() + ">" + k.to())
        .toList();
  }

  private static Map<String, MemoryNode> nodes(Ingestion.Graph g) {
    return g.nodes().stream().collect(Collectors.toMap(MemoryNode::id, Function.identity()));
  }

  @Test
  void runbook_conditionsOnEarlierOutcomes_dependOnTheUnitsTheyName() {
    Ingestion.Graph g = read("runbook", RUNBOOK);
    assertThat(edges(g, "depends_on")).containsExactly("x:2>x:1", "x:4>x:2", "x:4>x:3");
    assertThat(nodes(g).get("x:4").attributes()).containsEntry("depends_on", "x:2,x:3");
    // "Restart ..." against "Never restart ..." in one section
    assertThat(edges(g, "contradicts")).containsExactly("x:1>x:5");
    assertThat(nodes(g).get("x:5").attributes()).containsEntry("contradicts", "x:1");
  }

  @Test
  void runbook_rolesAndTags_comeFromDeclaredCues() {
    Map<String, MemoryNode> n = nodes(read("runbook", RUNBOOK));
    assertThat(n.get("x:1").attributes().get("semantic_roles")).isEqualTo("mitigation");
    assertThat(n.get("x:2").attributes().get("semantic_roles").split(","))
        .contains("condition", "mitigation");
    assertThat(n.get("x:5").attributes().get("semantic_roles").split(","))
        .contains("prohibition", "mitigation");
    assertThat(n.get("x:6").attributes().get("semantic_roles")).isEqualTo("escalation");
    assertThat(n.get("x:6").attributes().get("symbolic_tags").split(","))
        .contains("causal", "escalation");
    assertThat(n.get("x:6").attributes().get("scenario_tags").split(","))
        .contains("queue_backlog", "on_call");
    assertThat(n.get("x:3").attributes().get("scenario_tags")).isEqualTo("cache,gateway");
    assertThat(n.get("x:2").attributes().get("symbolic_tags").split(","))
        .contains("conditional", "negation");
  }

  @Test
  void contract_chainOfConditions_andAnExceptionOverridingItsRule() {
    Ingestion.Graph g = read("contract", CONTRACT);
    assertThat(edges(g, "depends_on")).containsExactly("x:2>x:1", "x:3>x:2");
    assertThat(edges(g, "exception_to")).contains("x:5>x:4");
    assertThat(edges(g, "contradicts")).containsExactly("x:4>x:5");
    Map<String, MemoryNode> n = nodes(g);
    assertThat(n.get("x:1").attributes().get("semantic_roles").split(",")).contains("obligation");
    assertThat(n.get("x:1").attributes().get("symbolic_tags").split(",")).contains("temporal");
    assertThat(n.get("x:2").attributes().get("semantic_roles").split(","))
        .contains("condition", "remedy");
    assertThat(n.get("x:2").attributes().get("scenario_tags")).isEqualTo("late_delivery");
    assertThat(n.get("x:3").attributes().get("semantic_roles").split(","))
        .contains("condition", "termination");
    assertThat(n.get("x:5").attributes().get("semantic_roles").split(","))
        .contains("exception", "prohibition", "payment");
  }

  @Test
  void condition_onNoEarlierOutcome_dependsOnNothing() {
    List<UnitStructure.Unit> units =
        List.of(
            new UnitStructure.Unit("a", "1", 1, "Restart the consumers."),
            new UnitStructure.Unit("b", "2", 1, "If the queue is long, restart the consumers."));
    assertThat(UnitStructure.dependsOn(units, 1)).isEmpty();
  }
}
