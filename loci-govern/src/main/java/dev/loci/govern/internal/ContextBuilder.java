package dev.loci.govern.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.loci.govern.Conflict;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryType;
import dev.loci.govern.StateEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Assembles a context pack in trust order within a token budget.
 *
 * <p>Design. Five slots in trust order, each with its share of the budget: trusted project state
 * 20%, identity 5%, preference 5%, active entities relevant to the prompt 15%, retrieved memories
 * 55%. A slot takes its share plus what earlier slots left unused, the last slot everything still
 * left, so the sum of the items' tokens never exceeds the budget. Items that do not fit are skipped
 * and smaller ones after them may still go in. Only active memories enter a pack: never candidates,
 * superseded, invalid or graduated ones; and an active record a conflict across layers puts below a
 * more trusted member ({@link dev.loci.govern.Conflict#prevailing()}) stays out while the conflict
 * is open. Retrieved memories are ranked by the share of the prompt's words they contain, times
 * their confidence. Tokens are counted with the cl100k_base encoding (jtokkit). Thread-safe.
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

  /**
   * The pack for a prompt from a namespace's trusted state, its active identity and preference
   * memories, and its active memories that best match the prompt, best first ({@code matching}).
   */
  public static ContextPack build(
      int budget,
      Map<String, StateEntry> state,
      List<Memory> identity,
      List<Memory> preference,
      List<Entity> entities,
      List<Memory> matching,
      Set<String> overruled) {
    List<List<Supplier<ContextPack.Item>>> candidates = new ArrayList<>();
    candidates.add(
        state.values().stream()
            .<Supplier<ContextPack.Item>>map(
                e ->
                    () ->
                        item(
                            "state",
                            e.key(),
                            e.key() + ": " + e.value(),
                            "set by " + e.setBy() + " at " + e.setAt()))
            .toList());
    candidates.add(trusted(kept(identity, overruled)));
    candidates.add(trusted(kept(preference, overruled)));
    candidates.add(
        entities.stream()
            .filter(e -> !overruled.contains(Conflict.ENTITY + e.id()))
            .<Supplier<ContextPack.Item>>map(e -> () -> item(e))
            .toList());
    candidates.add(retrieved(kept(matching, overruled)));
    List<ContextPack.Slot> slots = new ArrayList<>();
    int used = 0;
    int carry = 0;
    for (int i = 0; i < NAMES.length; i++) {
      int allotted = i == NAMES.length - 1 ? budget - used : budget * PERCENT[i] / 100 + carry;
      List<ContextPack.Item> taken = new ArrayList<>();
      int slotUsed = 0;
      for (Supplier<ContextPack.Item> next : candidates.get(i)) {
        if (slotUsed >= allotted) {
          break; // nothing more fits: no item has zero tokens
        }
        ContextPack.Item it = next.get();
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

  private static List<Supplier<ContextPack.Item>> trusted(List<Memory> memories) {
    return memories.stream()
        .sorted(
            Comparator.comparingDouble(Memory::confidence)
                .reversed()
                .thenComparing(Memory::updatedAt, Comparator.reverseOrder()))
        .<Supplier<ContextPack.Item>>map(m -> () -> item(m))
        .toList();
  }

  private static List<Supplier<ContextPack.Item>> retrieved(List<Memory> matching) {
    return matching.stream()
        .filter(m -> m.type() != MemoryType.IDENTITY && m.type() != MemoryType.PREFERENCE)
        .<Supplier<ContextPack.Item>>map(m -> () -> item(m))
        .toList();
  }

  private static List<Memory> kept(List<Memory> memories, Set<String> overruled) {
    return overruled.isEmpty()
        ? memories
        : memories.stream().filter(m -> !overruled.contains(m.id())).toList();
  }

  private static ContextPack.Item item(Entity e) {
    return item(
        "entity",
        e.id(),
        e.text(),
        e.type().label()
            + ", confidence "
            + String.format(Locale.ROOT, "%.2f", e.confidence())
            + ", from "
            + e.provenance().actor()
            + e.provenance().rule().map(r -> " (rule " + r + ")").orElse("")
            + (e.sources().isEmpty()
                ? ""
                : ", sources "
                    + e.sources().stream()
                        .map(x -> x.kind() + ":" + x.id())
                        .collect(java.util.stream.Collectors.joining(" "))));
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
