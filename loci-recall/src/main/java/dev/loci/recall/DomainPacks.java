package dev.loci.recall;

import dev.loci.InvalidRequestException;
import dev.loci.recall.internal.ConversationPack;
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
 * {@link ServiceLoader}. Thread-safe.
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
    return find(name)
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    "pack", "expected one of " + names() + ", found '" + name + "'"));
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
