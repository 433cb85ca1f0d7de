package dev.loci.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.StaleVersionException;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.govern.Candidate;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Provenance;
import dev.loci.govern.SourceRef;
import dev.loci.govern.Written;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.IngestReport;
import dev.loci.recall.PathStep;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LociApi} must do, run against the embedded one and the remote one alike: the
 * same calls give the same records and the same exceptions.
 */
abstract class LociApiContract {
  static final Namespace NS = Namespace.of("acme.alice");
  static final ObjectMapper MAPPER = new ObjectMapper();

  /** The API under test, fresh for each test. */
  abstract LociApi api();

  @Test
  void traces_addReviseRetireSearch_keepContentVerbatimAndRefuseStaleWrites() {
    LociApi api = api();
    Trace first =
        api.addTrace(NS, "{\"fact\": \"prefers tea\", \"weight\": 1.50}", List.of("pref"));
    assertThat(first.content()).isEqualTo("{\"fact\":\"prefers tea\",\"weight\":1.50}");
    assertThat(api.trace(NS, first.uid())).isEqualTo(first);

    Trace second =
        api.reviseTrace(
            NS, first.uid(), "{\"fact\":\"prefers green tea\"}", List.of("pref"), first.version());
    assertThat(second.predecessorUid()).contains(first.uid());
    assertThatThrownBy(
            () -> api.reviseTrace(NS, first.uid(), "{\"x\":1}", List.of(), first.version()))
        .isInstanceOf(StaleVersionException.class);

    Trace retired = api.retireTrace(NS, first.uid(), first.version());
    assertThat(retired.retired()).isTrue();
    assertThatThrownBy(() -> api.retireTrace(NS, second.uid(), first.version()))
        .isInstanceOf(StaleVersionException.class);

    assertThat(api.searchTraces(TraceQuery.in(NS).tag("pref").build()).items())
        .containsExactly(second);
    assertThat(api.searchTraces(TraceQuery.in(NS).tag("pref").includeRetired(true).build()).items())
        .containsExactly(retired, second);
  }

  @Test
  void badInput_throwsTheEmbeddedExceptionsNamingTheField() {
    LociApi api = api();
    assertThatThrownBy(() -> api.addTrace(NS, "{not json", List.of()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("content"));
    assertThatThrownBy(() -> api.trace(NS, "no-such-trace"))
        .isInstanceOfSatisfying(
            NotFoundException.class,
            e -> {
              assertThat(e.field()).isEqualTo("uid");
              assertThat(e.getMessage()).startsWith("uid: ").doesNotContain("uid: uid:");
            });
    DemoCorpus.Document doc = DemoCorpus.documents().get(0);
    assertThatThrownBy(() -> api.ingest(NS, "no:such-pack", List.of(doc.document())))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("pack"));
    assertThatThrownBy(() -> api.context(NS, "hello", 0))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("budget_tokens"));
    assertThatThrownBy(() -> api.memoryHistory(NS, "0190f4d2-0000-7000-8000-000000000000"))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void ingestThenRecall_returnsItemsWithEvidencePaths() {
    LociApi api = api();
    DemoCorpus.Document doc = DemoCorpus.documents().get(0);
    List<IngestReport> reports = api.ingest(NS, doc.pack(), List.of(doc.document()));
    assertThat(reports).singleElement().satisfies(r -> assertThat(r.nodes()).isPositive());

    RecallResult r =
        api.recall(
            NS,
            RecallQuery.builder(
                    "What is the penalty for a late delivery?", RecallMode.WEIGHTED_GRAPH)
                .k(5)
                .build());
    assertThat(r.mode()).isEqualTo(RecallMode.WEIGHTED_GRAPH);
    assertThat(r.items()).isNotEmpty();
    RecallItem top = r.items().get(0);
    assertThat(top.path().steps().get(0).via()).isEqualTo(PathStep.SEED);
    assertThat(top.path().supportingEvidence().get(0).path()).isEqualTo(doc.document().path());
    assertThat(top.path().finalScore()).isEqualTo(top.score());
  }

  @Test
  void governed_proposePromoteHistoryAndContext() {
    LociApi api = api();
    Written proposed =
        api.propose(
            NS,
            new MemoryDraft(
                MemoryType.PREFERENCE,
                "Alice prefers tea",
                0.7,
                Optional.of("drink"),
                List.of("alice"),
                Provenance.of("test")));
    Memory candidate = proposed.memory();
    assertThat(candidate.status()).isEqualTo(MemoryStatus.CANDIDATE);
    assertThat(api.context(NS, "What does Alice drink?", 200).toString())
        .doesNotContain("prefers tea");

    Written promoted = api.promote(NS, candidate.id());
    assertThat(promoted.memory().status()).isEqualTo(MemoryStatus.ACTIVE);
    assertThat(api.memoryHistory(NS, candidate.id()))
        .extracting(Memory::status)
        .containsExactly(MemoryStatus.ACTIVE, MemoryStatus.CANDIDATE);
    assertThat(
            api.memories(NS, Optional.of(MemoryType.PREFERENCE), Optional.of(MemoryStatus.ACTIVE)))
        .containsExactly(promoted.memory());

    ContextPack pack = api.context(NS, "What does Alice drink?", 200);
    assertThat(pack.usedTokens()).isPositive().isLessThanOrEqualTo(200);
    assertThat(pack.slots().stream().flatMap(s -> s.items().stream()))
        .anySatisfy(i -> assertThat(i.text()).contains("Alice prefers tea"));
  }

  @Test
  void entities_proposeListHistory_andTheOneQueuePromotesAndRejectsBothKinds() {
    LociApi api = api();
    EntityWritten proposed =
        api.proposeEntity(
            NS,
            EntityDraft.of(
                    EntityType.PARAMETER, "rated pressure", Map.of("value", "16 bar"), "test")
                .withConfidence(0.6)
                .withSources(List.of(new SourceRef("document", "spec.md"))));
    Entity pressure = proposed.entity();
    assertThat(pressure.status()).isEqualTo(EntityStatus.CANDIDATE);
    assertThat(pressure.sources()).containsExactly(new SourceRef("document", "spec.md"));
    Memory tea =
        api.propose(NS, MemoryDraft.of(MemoryType.PREFERENCE, "Alice prefers tea", "test"))
            .memory();

    List<Candidate> queue = api.candidates(NS);
    assertThat(queue)
        .extracting(Candidate::kind, Candidate::id)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("entity", pressure.id()),
            org.assertj.core.groups.Tuple.tuple("memory", tea.id()));

    Candidate promoted = api.promoteCandidate(NS, pressure.id());
    assertThat(promoted.entity().orElseThrow().status()).isEqualTo(EntityStatus.ACTIVE);
    Candidate rejected = api.rejectCandidate(NS, tea.id(), "not about the pump");
    assertThat(rejected.memory().orElseThrow().status()).isEqualTo(MemoryStatus.INVALID);
    assertThat(api.candidates(NS)).isEmpty();

    assertThat(
            api.entities(NS, Optional.of(EntityType.PARAMETER), Optional.of(EntityStatus.ACTIVE)))
        .containsExactly(promoted.entity().get());
    assertThat(api.entities(NS, Optional.of(EntityType.DECISION), Optional.empty())).isEmpty();
    assertThat(api.entityHistory(NS, pressure.id()))
        .extracting(Entity::status)
        .containsExactly(EntityStatus.ACTIVE, EntityStatus.CANDIDATE);

    assertThatThrownBy(() -> api.entityHistory(NS, "nope")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> api.promoteCandidate(NS, "nope"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(
            () ->
                api.proposeEntity(
                    NS, EntityDraft.of(EntityType.FACT, "x", Map.of("Bad Name", "1"), "test")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("fields"));
  }

  @Test
  void conversations_saveLoadListDelete_keepOneLiveVersionPerConversation() {
    Conversations chats = Conversations.of(api(), NS);
    assertThat(chats.load("c-1")).isEmpty();
    ArrayNode one = MAPPER.createArrayNode();
    one.addObject().put("role", "user").put("text", "hello");
    Trace v1 = chats.save("c-1", one);
    ArrayNode two = one.deepCopy();
    two.addObject().put("role", "assistant").put("text", "hi Alice");
    Trace v2 = chats.save("c-1", two);
    chats.save("c-2", one);

    assertThat(v2.predecessorUid()).contains(v1.uid());
    assertThat(chats.load("c-1")).contains(two);
    assertThat(chats.ids()).containsExactly("c-1", "c-2");
    assertThat(api().trace(NS, v1.uid()).retired()).as("the replaced version is retired").isTrue();

    assertThat(chats.delete("c-1")).isTrue();
    assertThat(chats.delete("c-1")).isFalse();
    assertThat(chats.load("c-1")).isEmpty();
    assertThat(chats.ids()).containsExactly("c-2");
    assertThat(api().trace(NS, v2.uid()).content()).contains("hi Alice");
    assertThatThrownBy(() -> chats.save(" ", one)).isInstanceOf(IllegalArgumentException.class);
  }
}
