package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.CorruptJournalException;
import dev.loci.StorageException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreTest {
  private static final Instant TS = Instant.parse("2026-11-22T10:00:00Z");

  @TempDir Path dir;

  private Path write(SnapshotStore store, long seq, int records) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      lines.add("{\"i\":" + i + "}");
    }
    Map<String, Map.Entry<Integer, Iterable<String>>> layers = new LinkedHashMap<>();
    layers.put("trace", new AbstractMap.SimpleEntry<>(1, lines));
    return store.write(seq, TS, layers);
  }

  @Test
  void write_thenCheckAndLoad_roundTripsHeaderAndRecords() {
    SnapshotStore store = SnapshotStore.open(dir);
    Path file = write(store, 42, 3);

    assertThat(file.getFileName().toString()).isEqualTo("00000000000000000042.snapshot");
    SnapshotStore.Header h = SnapshotStore.check(file);
    assertThat(h.seq()).isEqualTo(42);
    assertThat(h.ts()).isEqualTo(TS);
    assertThat(h.layers()).containsEntry("trace", 1);
    List<String> loaded = new ArrayList<>();
    SnapshotStore.load(file, (layer, data) -> loaded.add(layer + ":" + data));
    assertThat(loaded).containsExactly("trace:{\"i\":0}", "trace:{\"i\":1}", "trace:{\"i\":2}");
  }

  @Test
  void check_futureVersion_refusedNamingTheVersion() throws Exception {
    Path file = write(SnapshotStore.open(dir), 1, 1);
    List<String> lines = Files.readAllLines(file);
    lines.set(0, lines.get(0).replace("\"version\":1", "\"version\":99"));
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    for (String line : lines.subList(0, lines.size() - 1)) {
      crc.update((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    lines.set(
        lines.size() - 1,
        lines
            .get(lines.size() - 1)
            .replaceAll("[0-9a-f]{8}\"}$", String.format("%08x\"}", crc.getValue())));
    Files.write(file, lines);

    assertThatThrownBy(() -> SnapshotStore.check(file))
        .isInstanceOf(StorageException.class)
        .isNotInstanceOf(CorruptJournalException.class)
        .hasMessageContaining("version 99")
        .hasMessageContaining("reads version 1");
  }

  @Test
  void check_versionDigitDamaged_isCorruptionNotAnUnknownVersion() throws Exception {
    Path file = write(SnapshotStore.open(dir), 1, 1);
    Files.writeString(file, Files.readString(file).replace("\"version\":1", "\"version\":3"));
    assertThatThrownBy(() -> SnapshotStore.check(file))
        .isInstanceOf(CorruptJournalException.class)
        .hasMessageContaining("crc32c mismatch");
  }

  @Test
  void check_flippedByte_rejectedAsChecksumMismatch() throws Exception {
    Path file = write(SnapshotStore.open(dir), 1, 5);
    byte[] bytes = Files.readAllBytes(file);
    int at = new String(bytes, StandardCharsets.UTF_8).indexOf("\"i\":3") + 4;
    bytes[at] = '7';
    Files.write(file, bytes);

    assertThatThrownBy(() -> SnapshotStore.check(file))
        .isInstanceOf(CorruptJournalException.class)
        .hasMessageContaining("crc32c mismatch");
  }

  @Test
  void check_truncatedFile_rejectedAsIncomplete() throws Exception {
    Path file = write(SnapshotStore.open(dir), 1, 5);
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 10));

    assertThatThrownBy(() -> SnapshotStore.check(file)).isInstanceOf(CorruptJournalException.class);
  }

  @Test
  void check_notASnapshot_rejectedForMissingMagic() throws Exception {
    Path file = dir.resolve("00000000000000000001.snapshot");
    Files.writeString(file, "{\"hello\":1}\n");
    assertThatThrownBy(() -> SnapshotStore.check(file))
        .isInstanceOf(CorruptJournalException.class)
        .hasMessageContaining("magic");
  }

  @Test
  void open_leftoverTemporaryFile_removed() throws Exception {
    Path tmp = dir.resolve(".00000000000000000009.snapshot.123.tmp");
    Files.writeString(tmp, "partial");
    SnapshotStore.open(dir);
    assertThat(tmp).doesNotExist();
  }

  @Test
  void deleteOlderThan_keepsNewer() {
    SnapshotStore store = SnapshotStore.open(dir);
    write(store, 1, 1);
    write(store, 5, 1);
    write(store, 9, 1);
    assertThat(store.deleteOlderThan(9)).isEqualTo(2);
    assertThat(store.list()).extracting(SnapshotStore::seqOf).containsExactly(9L);
  }
}
