package dev.loci.recall.spi;

import java.util.List;
import java.util.Objects;

/**
 * A file handed to a {@link DomainPack}: its path as the caller named it and its text.
 *
 * @param path the path, recorded in every {@code EvidenceRef} the pack makes
 * @param text the whole content
 * @param subjectIds the data subjects (people) the document is about: every node an ingest of it
 *     writes names them (see {@code MemoryNode#subjectIds}); empty when it names none
 */
public record SourceDocument(String path, String text, List<String> subjectIds) {
  /** Checks presence and copies the subject ids (checked where the nodes are made). */
  public SourceDocument {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(text, "text");
    subjectIds = List.copyOf(subjectIds);
  }

  /** A document about no data subject. */
  public SourceDocument(String path, String text) {
    this(path, text, List.of());
  }

  /**
   * The file name without directories and without its last extension: {@code 01_supply_agreement}
   * for {@code docs/01_supply_agreement.md}.
   */
  public String stem() {
    String name = path.replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
