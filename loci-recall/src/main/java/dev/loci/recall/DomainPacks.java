package dev.loci.recall;

import dev.loci.InvalidRequestException;
import dev.loci.recall.internal.ConversationPack;
import dev.loci.recall.internal.EnrichedConversationPack;
import dev.loci.recall.internal.MarkdownPack;
import dev.loci.recall.spi.DomainPack;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The domain packs available by name: the built-in {@code markdown:contract}, {@code
 * markdown:runbook} and {@code conversation}, and every {@link DomainPack} registered through
 * {@link ServiceLoader}. The {@code conversation} pack also takes options after its name, joined
 * with {@code +}: {@code conversation+dated+window1+term-edges} indexes each turn with its session
 * date, with the turn before it as its context, and links turns of different sessions that share a
 * rare word, which is what {@code loci bench locomo} measures by default; {@code +entity-edges}
 * links turns naming the same proper noun through an entity node, {@code +resolved-dates} adds the
 * absolute dates of a turn's relative time expressions (see docs/recall.md for what each does to
 * recall). Thread-safe.
 */
public final class DomainPacks {
  private static final Map<String, DomainPack> PACKS = load();

  private DomainPacks() {}

  private static Map<String, DomainPack> load() {
    Map<String, DomainPack> packs = new LinkedHashMap<>();
    List<DomainPack> all = new ArrayList<>();
    all.add(new MarkdownPack(MarkdownPack.Flavour.CONTRACT));
    all.add(new MarkdownPack(MarkdownPack.Flavour.RUNBOOK));
    all.add(new ConversationPack());
    ServiceLoader.load(DomainPack.class).forEach(all::add);
    for (DomainPack p : all) {
      packs.putIfAbsent(p.name(), p);
    }
    return Map.copyOf(packs);
  }

  /**
   * The pack called {@code name}.
   *
   * @throws InvalidRequestException naming {@code pack} if there is none
   */
  public static DomainPack named(String name) {
    if (name.startsWith(ConversationPack.NAME + "+")) {
      return EnrichedConversationPack.parse(name);
    }
    return find(name)
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    "pack",
                    "expected one of "
                        + names()
                        + " (conversation may take options: conversation+dated+window1+term-edges),"
                        + " found '"
                        + name
                        + "'"));
  }

  /** The pack called {@code name}, if any. */
  public static Optional<DomainPack> find(String name) {
    return Optional.ofNullable(PACKS.get(name));
  }

  /** The names of every pack, sorted. */
  public static List<String> names() {
    return PACKS.keySet().stream().sorted().toList();
  }
}
