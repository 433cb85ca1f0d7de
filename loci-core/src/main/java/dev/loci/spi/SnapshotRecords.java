package dev.loci.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The common first step of {@link Layer#restore}: refuse a snapshot record of a version the layer
 * cannot read, and parse the record's JSON. Stateless.
 */
public final class SnapshotRecords {
  private SnapshotRecords() {}

  /**
   * Parses {@code record}, written by {@code layer}'s capture at snapshot format {@code version}.
   *
   * @param mapper the layer's mapper (its number handling shapes the tree)
   * @param readable the one version this build reads
   * @throws IllegalArgumentException naming the layer if the version is unknown or the record is
   *     not JSON
   */
  public static JsonNode read(
      ObjectMapper mapper, String layer, String record, int version, int readable) {
    if (version != readable) {
      throw new IllegalArgumentException(
          layer
              + " snapshot records of version "
              + version
              + " are unknown; this build reads "
              + readable);
    }
    try {
      return mapper.readTree(record);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "unreadable " + layer + " snapshot record: " + e.getMessage(), e);
    }
  }
}
