package dev.loci.govern.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.StateEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Assembles a context pack in trust order within a token budget.
 *
 * <p>Design. Five slots in trust order, each with its share of the budget: trusted project state
 * 20%, identity 5%, preference 5%, entities 15% (no entity layer yet: its share always flows on),
 * retrieved memories 55%. A slot takes its share plus what earlier slots left unused, the last slot
 * everything still left, so the sum of the items' tokens never exceeds the budget. Items that do
 * not fit are skipped and smaller ones after them may still go in. Only active memories enter a
 * pack: never candidates, superseded, invalid or graduated ones. Retrieved memories are ranked by
 * the share of the prompt's words they contain, times their confidence. Tokens are counted with the
 * cl100k_base encoding (jtokkit). Thread-safe.
 */
public final class ContextBuilder {
  private static final Encoding TOKENS =
      Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  private static final String[] NAMES = {
    "project_state", "identity", "preference", "entities", "retrieved"
  };
  private static final int[] PERCENT = {20, 5, 5, 15, 55};

  private ContextBuilder() {}

  /** Tokens of {@code text} in cl100k_base. */
  public static int tokens(String text) {
    return TOKENS.countTokens(text);
  }

  /** The pack for {@code prompt} from a namespace's state and memories. */
  public static ContextPack build(
      String prompt, int budget, Map<String, StateEntry> state, List<Memory> memories) {
    List<List<ContextPack.Item>> candidates = new ArrayList<>();
    candidates.add(
        state.values().stream()
            .map(
                e ->
                    item(
                        "state",
                        e.key(),
                        e.key() + ": " + e.value(),
                        "set by " + e.setBy() + " at " + e.setAt()))
            .toList());
    candidates.add(trusted(memories, MemoryType.IDENTITY));
    candidates.add(trusted(memories, MemoryType.PREFERENCE));
    candidates.add(List.of());
    candidates.add(retrieved(prompt, memories));
    List<ContextPack.Slot> slots = new ArrayList<>();
    int used = 0;
    int carry = 0;
    for (int i = 0; i < NAMES.length; i++) {
      int allotted = i == NAMES.length - 1 ? budget - used : budget * PERCENT[i] / 100 + carry;
      List<ContextPack.Item> taken = new ArrayList<>();
      int slotUsed = 0;
      for (ContextPack.Item it : candidates.get(i)) {
        if (slotUsed + it.tokens() <= allotted) {
          taken.add(it);
          slotUsed += it.tokens();
        }
      }
      slots.add(new ContextPack.Slot(NAMES[i], allotted, slotUsed, taken));
      used += slotUsed;
      carry = allotted - slotUsed;
    }
    return new ContextPack(budget, used, slots);
  }

  private static List<ContextPack.Item> trusted(List<Memory> memories, MemoryType type) {
    return memories.stream()
        .filter(m -> m.status() == MemoryStatus.ACTIVE && m.type() == type)
        .sorted(
            Comparator.comparingDouble(Memory::confidence)
                .reversed()
                .thenComparing(Memory::updatedAt, Comparator.reverseOrder()))
        .map(ContextBuilder::item)
        .toList();
  }

  private static List<ContextPack.Item> retrieved(String prompt, List<Memory> memories) {
    Set<String> words = words(prompt);
    record Scored(Memory memory, double score) {}
    return memories.stream()
        .filter(
            m ->
                m.status() == MemoryStatus.ACTIVE
                    && m.type() != MemoryType.IDENTITY
                    && m.type() != MemoryType.PREFERENCE)
        .map(
            m -> {
              Set<String> shared = words(m.content());
              shared.retainAll(words);
              double overlap = words.isEmpty() ? 0 : (double) shared.size() / words.size();
              return new Scored(m, overlap * m.confidence());
            })
        .filter(s -> s.score() > 0)
        .sorted(
            Comparator.comparingDouble(Scored::score)
                .reversed()
                .thenComparing(s -> s.memory().id()))
        .map(s -> item(s.memory()))
        .toList();
  }

  private static Set<String> words(String text) {
    Set<String> out = new HashSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() > 2) {
        out.add(w);
      }
    }
    return out;
  }

  private static ContextPack.Item item(Memory m) {
    return item(
        "memory",
        m.id(),
        m.content(),
        m.type().label()
            + ", confidence "
            + String.format(Locale.ROOT, "%.2f", m.confidence())
            + ", from "
            + m.provenance().actor()
            + m.reason().map(r -> ", " + r).orElse(""));
  }

  private static ContextPack.Item item(String kind, String id, String text, String provenance) {
    return new ContextPack.Item(kind, id, text, tokens(text), provenance);
  }
}
