package dev.loci.govern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The AtoCore walk-through: candidates, review, reinforcement, conflicts, state, context packs. */
class GovernedMemoryTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Reviewer REVIEWER = new Reviewer("dpo@acme");

  @TempDir Path dir;
  private Loci loci;
  private GovernedMemory gov;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(dir).open();
    gov = GovernedMemory.of(loci);
  }

  @AfterEach
  void close() {
    loci.close();
  }

  private void reopen() {
    loci.close();
    loci = Loci.builder().dataDir(dir).open();
    gov = GovernedMemory.of(loci);
  }

  private static MemoryDraft pref(String content) {
    return MemoryDraft.of(MemoryType.PREFERENCE, content, "agent-7")
        .withSlot("drink")
        .withSubjects(List.of("alice"));
  }

  @Test
  void propose_landsAsCandidateWithProvenance_andTheSameFactIsReinforcedNotStoredTwice() {
    MemoryDraft extracted =
        new MemoryDraft(
            MemoryType.PREFERENCE,
            "Alice prefers tea",
            0.6,
            Optional.of("drink"),
            List.of("alice"),
            new Provenance(
                "extractor",
                Optional.of("preference.i_prefer"),
                Optional.of("interaction-1"),
                Optional.of("chunk-3"),
                Optional.of("rules-1")));

    Memory first = gov.propose(NS, extracted).memory();
    Memory again = gov.propose(NS, extracted.withConfidence(0.9)).memory();

    assertThat(first.status()).isEqualTo(MemoryStatus.CANDIDATE);
    assertThat(first.provenance().rule()).contains("preference.i_prefer");
    assertThat(first.provenance().sourceInteraction()).contains("interaction-1");
    assertThat(first.provenance().sourceChunk()).contains("chunk-3");
    assertThat(first.provenance().extractorVersion()).contains("rules-1");
    assertThat(again.id()).isEqualTo(first.id());
    assertThat(again.reinforcements()).isEqualTo(1);
    assertThat(again.confidence()).isGreaterThan(first.confidence());
    assertThat(gov.list(NS, Optional.empty(), Optional.empty())).hasSize(1);
    assertThat(gov.candidates(NS)).extracting(Memory::id).containsExactly(first.id());
    assertThat(gov.history(NS, first.id())).extracting(Memory::version).containsExactly(2, 1);
  }

  @Test
  void promoteAndReject_areReviewerActs_recordedAndKeptAsHistory() {
    Memory tea = gov.propose(NS, pref("Alice prefers tea")).memory();
    Memory name =
        gov.propose(NS, MemoryDraft.of(MemoryType.IDENTITY, "Her name is Bob", "agent-7")).memory();

    Written promoted = gov.promote(NS, tea.id(), REVIEWER);
    Memory rejected = gov.reject(NS, name.id(), "she is Alice", REVIEWER);

    assertThat(promoted.memory().status()).isEqualTo(MemoryStatus.ACTIVE);
    assertThat(promoted.memory().reason()).contains("promoted by dpo@acme");
    assertThat(promoted.conflicts()).isEmpty();
    assertThat(rejected.status()).isEqualTo(MemoryStatus.INVALID);
    assertThat(rejected.reason()).contains("she is Alice (dpo@acme)");
    assertThat(gov.candidates(NS)).isEmpty();
    assertThat(gov.history(NS, name.id()))
        .extracting(Memory::status)
        .containsExactly(MemoryStatus.INVALID, MemoryStatus.CANDIDATE);
  }

  @Test
  void illegalTransitions_refusedNamingTheFieldAndNothingWritten() {
    Memory m = gov.propose(NS, pref("Alice prefers tea")).memory();
    gov.reject(NS, m.id(), "wrong", REVIEWER);
    long before = loci.lastSeq();

    for (Runnable bad :
        List.<Runnable>of(
            () -> gov.promote(NS, m.id(), REVIEWER),
            () -> gov.reject(NS, m.id(), "again", REVIEWER),
            () -> gov.reinforce(NS, m.id()),
            () -> gov.supersede(NS, m.id(), m.id(), REVIEWER))) {
      assertThatThrownBy(bad::run)
          .isInstanceOf(InvalidRequestException.class)
          .satisfies(e -> assertThat(((InvalidRequestException) e).field()).isIn("status", "by"));
    }
    assertThatThrownBy(() -> gov.promote(NS, "nope", REVIEWER))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> gov.reject(NS, m.id(), " ", REVIEWER))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("reason");
    assertThatThrownBy(() -> gov.propose(NS, MemoryDraft.of(MemoryType.KNOWLEDGE, " ", "a")))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("content");
    assertThatThrownBy(() -> MemoryType.of("opinion", "type"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("identity, preference, episodic, knowledge, project, adaptation");
    assertThatThrownBy(() -> MemoryStatus.of("trusted", "status"))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("status");
    assertThat(loci.lastSeq()).isEqualTo(before);
  }

  @Test
  void incompatibleWritesToOneSlot_bothSucceed_oneConflict_resolvedOnlyByAReviewer() {
    Written tea = gov.add(NS, pref("Alice prefers tea"), REVIEWER);
    Memory coffeeCandidate = gov.propose(NS, pref("Alice prefers coffee")).memory();
    Written coffee = gov.promote(NS, coffeeCandidate.id(), REVIEWER);
    Written water = gov.add(NS, pref("Alice prefers water"), REVIEWER);

    assertThat(tea.conflicts()).isEmpty();
    assertThat(coffee.memory().status()).isEqualTo(MemoryStatus.ACTIVE);
    assertThat(coffee.conflicts())
        .singleElement()
        .satisfies(
            c -> assertThat(c.members()).containsExactly(tea.memory().id(), coffee.memory().id()));
    Conflict conflict = water.conflicts().get(0);
    assertThat(conflict.id()).isEqualTo(coffee.conflicts().get(0).id()); // joined, not a second one
    assertThat(conflict.members()).hasSize(3);
    assertThat(gov.openConflicts()).isEqualTo(1);
    // a second sweep finds nothing new: the slot already has its open conflict
    assertThat(gov.sweep(NS)).isEmpty();

    Conflict resolved = gov.resolve(NS, conflict.id(), coffee.memory().id(), REVIEWER);

    assertThat(resolved.status()).isEqualTo(Conflict.Status.RESOLVED);
    assertThat(resolved.decidedBy()).contains("dpo@acme");
    assertThat(gov.openConflicts()).isZero();
    assertThat(gov.get(NS, tea.memory().id()).status()).isEqualTo(MemoryStatus.SUPERSEDED);
    assertThat(gov.get(NS, tea.memory().id()).supersededBy()).contains(coffee.memory().id());
    assertThat(gov.get(NS, water.memory().id()).status()).isEqualTo(MemoryStatus.SUPERSEDED);
    assertThat(gov.get(NS, coffee.memory().id()).status()).isEqualTo(MemoryStatus.ACTIVE);
    assertThatThrownBy(() -> gov.dismiss(NS, conflict.id(), REVIEWER))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void trustedState_conflictsWithADisagreeingMemory_andDismissKeepsBoth() {
    Written active =
        gov.add(
            NS,
            MemoryDraft.of(MemoryType.PROJECT, "The release ships on Friday", "agent")
                .withSlot("release_day"),
            REVIEWER);
    StateEntry set = gov.setState(NS, "release_day", "Thursday", REVIEWER);

    assertThat(set.setBy()).isEqualTo("dpo@acme");
    List<Conflict> open = gov.conflicts(NS, Optional.of(Conflict.Status.OPEN));
    assertThat(open)
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.members()).containsExactly("state:release_day", active.memory().id()));

    Conflict dismissed = gov.dismiss(NS, open.get(0).id(), REVIEWER);
    assertThat(dismissed.status()).isEqualTo(Conflict.Status.DISMISSED);
    assertThat(gov.state(NS, "release_day").map(StateEntry::value)).contains("Thursday");
    assertThat(gov.get(NS, active.memory().id()).status()).isEqualTo(MemoryStatus.ACTIVE);
    assertThatThrownBy(() -> gov.setState(NS, "bad key", "x", REVIEWER))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("key");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 25, 60, 4000})
  void context_trustOrderWithinTheBudgetExactly_neverUntrustedRecords(int budget) {
    gov.setState(NS, "deadline", "The contract is due on 1 March", REVIEWER);
    gov.add(
        NS,
        MemoryDraft.of(MemoryType.IDENTITY, "The user is Alice, a buyer at Acme", "a"),
        REVIEWER);
    gov.add(NS, pref("Alice prefers short answers"), REVIEWER);
    Memory old =
        gov.add(
                NS,
                MemoryDraft.of(MemoryType.KNOWLEDGE, "The penalty for late delivery is 1%", "a"),
                REVIEWER)
            .memory();
    Memory current =
        gov.propose(
                NS,
                MemoryDraft.of(MemoryType.KNOWLEDGE, "The penalty for late delivery is 2%", "a"))
            .memory();
    gov.supersede(NS, old.id(), current.id(), REVIEWER);
    gov.propose(
        NS, MemoryDraft.of(MemoryType.KNOWLEDGE, "The penalty for late delivery is 9%", "a"));
    Memory wrong =
        gov.add(
                NS,
                MemoryDraft.of(MemoryType.KNOWLEDGE, "Late delivery penalty is waived", "a"),
                REVIEWER)
            .memory();
    gov.invalidate(NS, wrong.id(), "not in the contract", REVIEWER);

    ContextPack pack = gov.context(NS, "What penalty applies to a late delivery?", budget);

    assertThat(pack.slots())
        .extracting(ContextPack.Slot::name)
        .containsExactly("project_state", "identity", "preference", "entities", "retrieved");
    int sum =
        pack.slots().stream()
            .flatMap(s -> s.items().stream())
            .mapToInt(ContextPack.Item::tokens)
            .sum();
    assertThat(sum).isEqualTo(pack.usedTokens()).isLessThanOrEqualTo(budget);
    for (ContextPack.Slot s : pack.slots()) {
      assertThat(s.usedTokens()).isLessThanOrEqualTo(s.allottedTokens());
    }
    List<String> texts =
        pack.slots().stream().flatMap(s -> s.items().stream()).map(ContextPack.Item::text).toList();
    assertThat(texts).noneMatch(t -> t.contains("1%") || t.contains("9%") || t.contains("waived"));
    if (budget == 4000) {
      assertThat(texts)
          .containsExactly(
              "deadline: The contract is due on 1 March",
              "The user is Alice, a buyer at Acme",
              "Alice prefers short answers",
              "The penalty for late delivery is 2%");
      assertThat(pack.slots().get(0).allottedTokens()).isEqualTo(800);
      assertThat(pack.slots().get(0).items().get(0).provenance()).contains("dpo@acme");
    }
  }

  @Test
  void context_badInput_namesTheField() {
    assertThatThrownBy(() -> gov.context(NS, "q", 0))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("budget_tokens");
    assertThatThrownBy(() -> gov.context(NS, " ", 10))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("prompt");
  }

  @Test
  void everythingSurvivesReplayAndSnapshot() {
    Written tea = gov.add(NS, pref("Alice prefers tea"), REVIEWER);
    gov.add(NS, pref("Alice prefers coffee"), REVIEWER);
    gov.setState(NS, "k", "v", REVIEWER);
    gov.propose(NS, MemoryDraft.of(MemoryType.EPISODIC, "Met Alice on Monday", "a"));
    List<Memory> memories = gov.list(NS, Optional.empty(), Optional.empty());
    List<Conflict> conflicts = gov.conflicts(NS, Optional.empty());

    reopen();
    assertThat(gov.list(NS, Optional.empty(), Optional.empty())).isEqualTo(memories);
    assertThat(gov.conflicts(NS, Optional.empty())).isEqualTo(conflicts);
    loci.snapshot();
    reopen();
    assertThat(gov.list(NS, Optional.empty(), Optional.empty())).isEqualTo(memories);
    assertThat(gov.conflicts(NS, Optional.empty())).isEqualTo(conflicts);
    assertThat(gov.state(NS, "k")).isPresent();
    assertThat(gov.history(NS, tea.memory().id())).hasSize(1);
    assertThat(gov.openConflicts()).isEqualTo(1);
  }

  @Test
  void noPathTrustsWithoutAReviewer() {
    // every public act that makes a record trusted or untrusted, or sets project state, takes a
    // Reviewer; the ones without one only ever leave candidates
    Set<String> reviewerActs =
        Set.of(
            "add",
            "promote",
            "reject",
            "invalidate",
            "supersede",
            "resolve",
            "dismiss",
            "setState",
            "deleteState",
            "promoteCandidate",
            "rejectCandidate",
            "setSetting",
            "update");
    for (Class<?> facade : List.of(GovernedMemory.class, GovernedEntities.class)) {
      for (Method m : facade.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers())) {
          continue;
        }
        boolean takesReviewer = Arrays.asList(m.getParameterTypes()).contains(Reviewer.class);
        assertThat(takesReviewer).as(m.getName()).isEqualTo(reviewerActs.contains(m.getName()));
      }
    }
    Consumer<Runnable> noReviewer =
        r -> assertThatThrownBy(r::run).isInstanceOf(NullPointerException.class);
    Memory m = gov.propose(NS, pref("Alice prefers tea")).memory();
    noReviewer.accept(() -> gov.promote(NS, m.id(), null));
    noReviewer.accept(() -> gov.setState(NS, "k", "v", null));
    for (int i = 0; i < 5; i++) {
      gov.propose(NS, pref("Alice prefers tea"));
      gov.reinforce(NS, m.id());
    }
    gov.sweep(NS);
    assertThat(gov.list(NS, Optional.empty(), Optional.empty()))
        .allMatch(x -> x.status() == MemoryStatus.CANDIDATE);
    assertThat(gov.state(NS)).isEmpty();
  }

  @Test
  void state_listsKeysInKeyOrder_whateverOrderTheyWereSet() {
    List<String> keys = List.of("zeta", "alpha", "mu", "beta", "omega", "gamma", "kappa");
    for (String k : keys) {
      gov.setState(NS, k, "v-" + k, REVIEWER);
    }

    assertThat(gov.state(NS).keySet())
        .containsExactly(keys.stream().sorted().toArray(String[]::new));
  }

  @Test
  void supersede_byAnAlreadyActiveMemory_appliesAndSurvivesReplay() {
    // regression: the successor's unchanged version was written again and the batch failed to
    // apply after it was durable
    Memory old = gov.add(NS, pref("Alice prefers tea"), REVIEWER).memory();
    Memory next =
        gov.add(NS, MemoryDraft.of(MemoryType.EPISODIC, "Lunch moved", "a"), REVIEWER).memory();
    gov.supersede(NS, old.id(), next.id(), REVIEWER);
    assertThat(gov.get(NS, old.id()).status()).isEqualTo(MemoryStatus.SUPERSEDED);
    assertThat(gov.get(NS, next.id()).version()).isEqualTo(next.version());
    reopen();
    assertThat(gov.get(NS, old.id()).supersededBy()).contains(next.id());
  }
}
