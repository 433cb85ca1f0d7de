package dev.loci.govern;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context packs over a namespace of many records in every status: what the pack's indexes and
 * caches (token counts kept per memory, the overruled set, the top-k walk) must never change.
 */
class ContextPackTest {
  private static final Namespace NS = Namespace.of("acme.pack");
  private static final Reviewer REVIEWER = new Reviewer("dpo@acme");
  private static final Encoding CL100K =
      Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
  private static final String[] WORDS = {
    "pump", "valve", "pressure", "contract", "delivery", "penalty", "supplier", "coffee",
    "deadline", "release", "turbine", "cooling", "invoice", "tea", "short", "answers"
  };

  @TempDir Path dir;

  @Test
  void pack_atScale_keepsOrderBudgetAndStatus_andIsTheSameAfterReopen() {
    long seed = 7;
    Random r = new Random(seed);
    List<String> retired = new ArrayList<>();
    List<String> candidates = new ArrayList<>();
    List<String> prompts = new ArrayList<>();
    List<ContextPack> warm = new ArrayList<>();
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      for (int s = 0; s < 12; s++) {
        gov.setState(NS, "key" + (11 - s), "value " + text(r, 4), REVIEWER);
      }
      List<Memory> active = new ArrayList<>();
      for (int i = 0; i < 1500; i++) {
        MemoryType type = MemoryType.values()[r.nextInt(MemoryType.values().length)];
        MemoryDraft d =
            MemoryDraft.of(type, "fact " + i + " " + text(r, 3 + r.nextInt(12)), "agent")
                .withConfidence(0.05 + 0.9 * r.nextDouble());
        if (i % 4 == 0) {
          candidates.add(gov.propose(NS, d).memory().id());
        } else {
          active.add(gov.add(NS, d, REVIEWER).memory());
        }
      }
      for (int i = 0; i < 200; i++) { // reinforced: new versions with the same content
        gov.reinforce(NS, active.get(r.nextInt(active.size())).id());
      }
      for (int i = 0; i + 1 < 120; i += 2) { // superseded and invalid records
        Memory old = active.get(i);
        gov.supersede(NS, old.id(), active.get(i + 1).id(), REVIEWER);
        retired.add(old.id());
      }
      for (int i = 120; i < 180; i++) {
        gov.invalidate(NS, active.get(i).id(), "wrong", REVIEWER);
        retired.add(active.get(i).id());
      }
      for (int q = 0; q < 12; q++) {
        prompts.add("What about the " + text(r, 2) + "?");
      }
      int[] budgets = {40, 300, 1000, 4000};
      for (int q = 0; q < prompts.size(); q++) {
        ContextPack pack = gov.context(NS, prompts.get(q), budgets[q % budgets.length]);
        check(gov, pack, retired, candidates);
        assertThat(gov.context(NS, prompts.get(q), budgets[q % budgets.length])).isEqualTo(pack);
        warm.add(pack);
      }
    }
    // replay builds every index again and counts no token before the first pack
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      int[] budgets = {40, 300, 1000, 4000};
      for (int q = 0; q < prompts.size(); q++) {
        assertThat(gov.context(NS, prompts.get(q), budgets[q % budgets.length]))
            .as("prompt %s (seed %d)", prompts.get(q), seed)
            .isEqualTo(warm.get(q));
      }
    }
  }

  /** The overruled set a pack keeps is computed again whenever a conflict opens or closes. */
  @Test
  void pack_followsConflictsOpenedAndDismissed_afterAPackCachedTheOverruledSet() {
    try (Loci loci = Loci.builder().dataDir(dir).open()) {
      GovernedMemory gov = GovernedMemory.of(loci);
      Memory m =
          gov.add(
                  NS,
                  MemoryDraft.of(MemoryType.KNOWLEDGE, "The rated pressure is 25 bar", "agent")
                      .withSlot("rated_pressure"),
                  REVIEWER)
              .memory();
      assertThat(ids(gov.context(NS, "rated pressure", 4000))).contains(m.id());

      gov.setState(NS, "rated_pressure", "16 bar", REVIEWER);
      Conflict open = gov.conflicts(NS, Optional.of(Conflict.Status.OPEN)).get(0);
      assertThat(open.members()).contains(m.id());
      assertThat(ids(gov.context(NS, "rated pressure", 4000)))
          .contains("rated_pressure")
          .doesNotContain(m.id());

      gov.dismiss(NS, open.id(), REVIEWER);
      assertThat(ids(gov.context(NS, "rated pressure", 4000))).contains(m.id(), "rated_pressure");
    }
  }

  private static List<String> ids(ContextPack pack) {
    return pack.slots().stream()
        .flatMap(s -> s.items().stream())
        .map(ContextPack.Item::id)
        .toList();
  }

  private static void check(
      GovernedMemory gov, ContextPack pack, List<String> retired, List<String> candidates) {
    int sum = 0;
    int carry = 0;
    int[] percent = {20, 5, 5, 15, 55};
    for (int i = 0; i < pack.slots().size(); i++) {
      ContextPack.Slot slot = pack.slots().get(i);
      int allotted =
          i == 4 ? pack.budgetTokens() - sum : pack.budgetTokens() * percent[i] / 100 + carry;
      assertThat(slot.allottedTokens()).isEqualTo(allotted);
      int used = 0;
      for (ContextPack.Item item : slot.items()) {
        assertThat(item.tokens()).as(item.text()).isEqualTo(CL100K.countTokens(item.text()));
        used += item.tokens();
        if (item.kind().equals("memory")) {
          Memory m = gov.get(NS, item.id());
          assertThat(m.status()).isEqualTo(MemoryStatus.ACTIVE);
          assertThat(item.provenance())
              .startsWith(
                  m.type().label()
                      + ", confidence "
                      + String.format(Locale.ROOT, "%.2f", m.confidence()));
        }
      }
      assertThat(slot.usedTokens()).isEqualTo(used).isLessThanOrEqualTo(allotted);
      sum += used;
      carry = allotted - used;
    }
    assertThat(pack.usedTokens()).isEqualTo(sum).isLessThanOrEqualTo(pack.budgetTokens());
    List<String> ids =
        pack.slots().stream().flatMap(s -> s.items().stream()).map(ContextPack.Item::id).toList();
    assertThat(ids).doesNotContainAnyElementsOf(retired).doesNotContainAnyElementsOf(candidates);
    // state in key order; identity and preference a subsequence of the trust order
    List<String> keys = pack.slots().get(0).items().stream().map(ContextPack.Item::id).toList();
    assertThat(keys).isSorted();
    for (int i = 1; i <= 2; i++) {
      MemoryType type = i == 1 ? MemoryType.IDENTITY : MemoryType.PREFERENCE;
      List<String> order =
          gov.list(NS, Optional.of(type), Optional.of(MemoryStatus.ACTIVE)).stream()
              .sorted(
                  Comparator.comparingDouble(Memory::confidence)
                      .reversed()
                      .thenComparing(Memory::updatedAt, Comparator.reverseOrder())
                      .thenComparing(Memory::id))
              .map(Memory::id)
              .toList();
      List<String> taken = pack.slots().get(i).items().stream().map(ContextPack.Item::id).toList();
      if (!taken.isEmpty()) {
        assertThat(order).containsSubsequence(taken);
      }
    }
  }

  private static String text(Random r, int words) {
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < words; k++) {
      b.append(k == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
    }
    return b.toString();
  }
}
