package dev.loci.govern;

import java.util.List;
import java.util.Objects;

/**
 * What an agent's prompt gets: trusted records in trust order, within a token budget.
 *
 * @param budgetTokens the budget asked for
 * @param usedTokens the tokens of every item, never more than the budget
 * @param slots the slots in trust order: project state, identity, preference, entities, retrieved
 */
public record ContextPack(int budgetTokens, int usedTokens, List<Slot> slots) {
  /** Copies the slots. */
  public ContextPack {
    slots = List.copyOf(slots);
  }

  /**
   * One slot of the pack.
   *
   * @param name {@code project_state}, {@code identity}, {@code preference}, {@code entities} or
   *     {@code retrieved}
   * @param allottedTokens its share of the budget plus what earlier slots left unused
   * @param usedTokens the tokens of its items
   * @param items what it holds, best first
   */
  public record Slot(String name, int allottedTokens, int usedTokens, List<Item> items) {
    /** Copies the items. */
    public Slot {
      Objects.requireNonNull(name, "name");
      items = List.copyOf(items);
    }
  }

  /**
   * One record in a pack.
   *
   * @param kind {@code state} or {@code memory}
   * @param id the state key or memory id
   * @param text what goes into the prompt
   * @param tokens its token count (cl100k_base)
   * @param provenance who set or proposed it, and its confidence for a memory
   */
  public record Item(String kind, String id, String text, int tokens, String provenance) {
    /** Checks presence. */
    public Item {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(provenance, "provenance");
    }
  }
}
