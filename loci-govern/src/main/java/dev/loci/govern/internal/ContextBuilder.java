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
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Assembles a context pack in trust order within a token budget.
 *
 * <p>Design. Five slots in trust order, each with its share of the budget: trusted project state
 * 20%, identity 5%, preference 5%, active entities relevant to the prompt 15%, retrieved memories
 * 55%. A slot takes its share plus what earlier slots left unused, the last slot everything still
 * left, so the sum of the items' tokens never exceeds the budget. Items that do not fit are skipped
 * and smaller ones after them may still go in, until {@link #MAX_MISSES} in a row did not fit. Only
 * active memories enter a pack: never candidates, superseded, invalid or graduated ones; and an
 * active record a conflict across layers puts below a more trusted member ({@link
 * dev.loci.govern.Conflict#prevailing()}) stays out while the conflict is open. Retrieved memories
 * are ranked by the share of the prompt's words they contain, times their confidence. Tokens are
 * counted with the cl100k_base encoding (jtokkit). Thread-safe.
 */
public final class ContextBuilder {
  /** Loads cl100k_base alone: the default registry would load every encoding, o200k too. */
  private static final Encoding TOKENS =
      Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

  private static final String[] NAMES = {
    "project_state", "identity", "preference", "entities", "retrieved"
  };
  private static final int[] PERCENT = {20, 5, 5, 15, 55};

  /**
   * Items in a row that do not fit after which a slot stops looking: smaller ones further down may
   * still fit, but scanning (and counting the tokens of) every remaining record of a large slot to
   * fill its last few tokens cost more than the pack.
   */
  static final int MAX_MISSES = 32;

  private ContextBuilder() {}

  /** Tokens of {@code text} in cl100k_base. */
  public static int tokens(String text) {
    return TOKENS.countTokens(text);
  }

  /**
   * The pack for a prompt from a namespace's trusted state, its active identity and preference
   * memories, and its active memories that best match the prompt, best first ({@code matching});
   * {@code memoryTokens} gives a memory's {@link #tokens} (the layer keeps them counted).
   */
  public static ContextPack build(
      int budget,
      Map<String, StateEntry> state,
      Iterable<Memory> identity,
      Iterable<Memory> preference,
      List<Entity> entities,
      List<Memory> matching,
      Set<String> overruled,
      ToIntFunction<Memory> memoryTokens) {
    List<Iterator<Pending>> candidates = new ArrayList<>();
    candidates.add(
        state.values().stream()
            .map(
                e -> {
                  String text = e.key() + ": " + e.value();
                  return new Pending(
                      "state",
                      e.key(),
                      text,
                      () -> tokens(text),
                      () -> "set by " + e.setBy() + " at " + e.setAt());
                })
            .iterator());
    candidates.add(trusted(identity, overruled, memoryTokens));
    candidates.add(trusted(preference, overruled, memoryTokens));
    candidates.add(
        entities.stream()
            .filter(e -> !overruled.contains(Conflict.ENTITY + e.id()))
            .map(ContextBuilder::pending)
            .iterator());
    candidates.add(retrieved(kept(matching, overruled), memoryTokens));
    List<ContextPack.Slot> slots = new ArrayList<>();
    int used = 0;
    int carry = 0;
    for (int i = 0; i < NAMES.length; i++) {
      int allotted = i == NAMES.length - 1 ? budget - used : budget * PERCENT[i] / 100 + carry;
      List<ContextPack.Item> taken = new ArrayList<>();
      int slotUsed = 0;
      int misses = 0;
      for (Iterator<Pending> it = candidates.get(i); it.hasNext(); ) {
        if (slotUsed >= allotted || misses >= MAX_MISSES) {
          break; // nothing more fits (no item has zero tokens), or a long run did not
        }
        Pending next = it.next();
        int tokens = next.tokens().getAsInt();
        if (slotUsed + tokens <= allotted) {
          taken.add(
              new ContextPack.Item(
                  next.kind(), next.id(), next.text(), tokens, next.provenance().get()));
          slotUsed += tokens;
          misses = 0;
        } else {
          misses++;
        }
      }
      slots.add(new ContextPack.Slot(NAMES[i], allotted, slotUsed, taken));
      used += slotUsed;
      carry = allotted - slotUsed;
    }
    return new ContextPack(budget, used, slots);
  }

  /** An item before its tokens are counted; its provenance is written only if it goes in. */
  private record Pending(
      String kind, String id, String text, IntSupplier tokens, Supplier<String> provenance) {}

  /**
   * {@code memories} in the order given (most confident first, then most recently updated: the
   * layer keeps them so), leaving out the overruled ones, read lazily as the slot fills.
   */
  private static Iterator<Pending> trusted(
      Iterable<Memory> memories, Set<String> overruled, ToIntFunction<Memory> tokens) {
    Iterator<Memory> it = memories.iterator();
    return new Iterator<>() {
      private Memory next = advance();

      private Memory advance() {
        while (it.hasNext()) {
          Memory m = it.next();
          if (!overruled.contains(m.id())) {
            return m;
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public Pending next() {
        if (next == null) {
          throw new java.util.NoSuchElementException();
        }
        Memory m = next;
        next = advance();
        return pending(m, tokens);
      }
    };
  }

  private static Iterator<Pending> retrieved(List<Memory> matching, ToIntFunction<Memory> tokens) {
    return matching.stream()
        .filter(m -> m.type() != MemoryType.IDENTITY && m.type() != MemoryType.PREFERENCE)
        .map(m -> pending(m, tokens))
        .iterator();
  }

  private static List<Memory> kept(List<Memory> memories, Set<String> overruled) {
    return overruled.isEmpty()
        ? memories
        : memories.stream().filter(m -> !overruled.contains(m.id())).toList();
  }

  private static Pending pending(Entity e) {
    return new Pending(
        "entity",
        e.id(),
        e.text(),
        () -> tokens(e.text()),
        () ->
            e.type().label()
                + ", confidence "
                + twoDecimals(e.confidence())
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

  private static Pending pending(Memory m, ToIntFunction<Memory> tokens) {
    return new Pending(
        "memory",
        m.id(),
        m.content(),
        () -> tokens.applyAsInt(m),
        () ->
            m.type().label()
                + ", confidence "
                + twoDecimals(m.confidence())
                + ", from "
                + m.provenance().actor()
                + m.reason().map(r -> ", " + r).orElse(""));
  }

  /**
   * {@code value} with two decimals, rounded half up, exactly as {@code String.format(Locale.ROOT,
   * "%.2f", value)} writes it (both round the shortest decimal that names the double) at a fraction
   * of the cost: a pack writes it for every item it takes, and {@code Formatter} parses its pattern
   * each time.
   */
  static String twoDecimals(double value) {
    return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).toPlainString();
  }
}
