package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.loci.CorruptJournalException;
import dev.loci.FuzzBudget;
import dev.loci.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Coverage-guided fuzzing of the snapshot reader: the fuzzer's bytes are a snapshot file.
 * Invariants: {@code check} either returns a header or throws {@link CorruptJournalException} /
 * {@link StorageException} with a message; a checked file loads without other exceptions; reading
 * writes nothing (the file is unchanged and no other file appears); the work stays within a
 * generous linear budget.
 */
class SnapshotStoreFuzzTest {
  private static final Path DIR = createDir();

  private static Path createDir() {
    try {
      Path dir = Files.createTempDirectory("loci-snapshot-fuzz");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "10s")
  void check_fuzzedFile_returnsHeaderOrThrowsCorrupt(byte[] bytes) throws IOException {
    Path file = DIR.resolve("00000000000000000001.snapshot");
    Files.write(file, bytes);
    long start = FuzzBudget.start();
    try {
      SnapshotStore.Header header = SnapshotStore.check(file);
      assertThat(header).isNotNull();
      long[] loaded = {0};
      SnapshotStore.load(file, (layer, record) -> loaded[0]++);
    } catch (CorruptJournalException | StorageException e) {
      assertThat(e.getMessage()).isNotBlank();
    } finally {
      FuzzBudget.assertLinear(start, bytes.length);
      assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
      try (Stream<Path> files = Files.list(DIR)) {
        assertThat(files.toList()).isEqualTo(List.of(file));
      }
      file.toFile().deleteOnExit();
    }
  }
}
