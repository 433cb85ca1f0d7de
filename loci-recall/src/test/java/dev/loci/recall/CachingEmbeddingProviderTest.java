package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.StorageException;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingEmbeddingProviderTest {
  private static final HashingEmbeddingProvider HASHING = HashingEmbeddingProvider.create();
  private static final int RECORD = 32 + 4 * 384 + 4;

  @TempDir Path dir;

  /** A real provider that counts what reaches it. */
  static final class CountingProvider implements EmbeddingProvider {
    private final EmbeddingProvider inner;
    private final String modelId;
    int calls;
    int texts;

    CountingProvider(EmbeddingProvider inner, String modelId) {
      this.inner = inner;
      this.modelId = modelId;
    }

    CountingProvider() {
      this(HASHING, HASHING.modelId());
    }

    @Override
    public String modelId() {
      return modelId;
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> batch) {
      calls++;
      texts += batch.size();
      return inner.embedDocuments(batch);
    }
  }

  private static List<String> texts(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("unit " + i + ": the supplier shall deliver lot " + (i * 7) + " on time");
    }
    return out;
  }

  private Path file() {
    return dir.resolve("cache/embeddings/hashing-384-v1.bin");
  }

  private void fill(List<String> texts) {
    try (CachingEmbeddingProvider c =
        CachingEmbeddingProvider.open(new CountingProvider(), file())) {
      c.embedDocuments(texts);
    }
  }

  @Test
  void embed_secondOpenSameTexts_zeroCallsToDelegate() {
    List<String> texts = texts(100);
    CountingProvider first = new CountingProvider();
    List<float[]> computed;
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(first, file())) {
      computed = c.embedDocuments(texts);
      assertThat(c.misses()).isEqualTo(100);
    }
    assertThat(first.texts).isEqualTo(100);

    CountingProvider second = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(second, file())) {
      assertThat(c.opened()).isEqualTo(new CachingEmbeddingProvider.Opened(100, 0, 0));
      List<float[]> cached = c.embedDocuments(texts);

      assertThat(second.calls).isZero();
      assertThat(c.hits()).isEqualTo(100);
      for (int i = 0; i < texts.size(); i++) {
        assertThat(cached.get(i)).containsExactly(computed.get(i));
        assertThat(cached.get(i)).containsExactly(HASHING.embed(texts.get(i)));
      }
    }
  }

  @Test
  void embed_partlyCached_delegateGetsOnlyTheNewTextsOnce() {
    fill(texts(10));
    CountingProvider counting = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(counting, file())) {
      List<String> batch = new ArrayList<>(texts(12));
      batch.add(batch.get(11));
      List<float[]> out = c.embedDocuments(batch);

      assertThat(counting.calls).isEqualTo(1);
      assertThat(counting.texts).isEqualTo(2);
      assertThat(out).hasSize(13);
      assertThat(out.get(12)).containsExactly(out.get(11));
      assertThat(c.size()).isEqualTo(12);
    }
  }

  /** Four dimensions, so cutting a file at every byte offset stays quick. */
  static final class TinyProvider implements EmbeddingProvider {
    @Override
    public String modelId() {
      return "tiny-4-v1";
    }

    @Override
    public int dimension() {
      return 4;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return texts.stream().map(t -> Arrays.copyOf(HASHING.embed(t), 4)).toList();
    }
  }

  @Test
  void open_cutAtEveryByteOffset_keepsWholeRecordsAndReembedsTheRest() throws IOException {
    TinyProvider tiny = new TinyProvider();
    int record = 32 + 4 * 4 + 4;
    List<String> texts = texts(3);
    Path file = dir.resolve("tiny.bin");
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(tiny, file)) {
      c.embedDocuments(texts);
    }
    byte[] full = Files.readAllBytes(file);
    int header = full.length - 3 * record;

    for (int cut = header; cut <= full.length; cut++) {
      Files.write(file, Arrays.copyOf(full, cut));
      int whole = (cut - header) / record;
      CountingProvider counting = new CountingProvider(tiny, tiny.modelId());
      try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(counting, file)) {
        assertThat(c.opened().records()).as("cut at %d", cut).isEqualTo(whole);
        assertThat(c.opened().truncatedBytes()).isEqualTo(cut - header - whole * record);
        assertThat(Files.size(file)).isEqualTo(header + (long) whole * record);

        List<float[]> out = c.embedDocuments(texts);

        assertThat(counting.texts).isEqualTo(3 - whole);
        assertThat(out)
            .usingRecursiveFieldByFieldElementComparator()
            .isEqualTo(tiny.embedDocuments(texts));
      }
      assertThat(Files.size(file)).isEqualTo(header + 3L * record);
    }
  }

  @Test
  void open_badChecksumInTheMiddle_recordSkippedOthersUsed() throws IOException {
    List<String> texts = texts(5);
    fill(texts);
    long size = Files.size(file());
    long header = size - 5 * RECORD;
    flipByte(header + 2L * RECORD + 100);

    CountingProvider counting = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(counting, file())) {
      assertThat(c.opened()).isEqualTo(new CachingEmbeddingProvider.Opened(4, 1, 0));
      List<float[]> out = c.embedDocuments(texts);

      assertThat(counting.texts).isEqualTo(1);
      assertThat(out.get(2)).containsExactly(HASHING.embed(texts.get(2)));
    }
    CountingProvider again = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(again, file())) {
      c.embedDocuments(texts);
      assertThat(again.calls).isZero();
    }
  }

  @Test
  void open_badChecksumInTheLastRecord_tornWriteCutOff() throws IOException {
    List<String> texts = texts(5);
    fill(texts);
    long size = Files.size(file());
    flipByte(size - 10);

    CountingProvider counting = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(counting, file())) {
      assertThat(c.opened()).isEqualTo(new CachingEmbeddingProvider.Opened(4, 0, RECORD));
      assertThat(Files.size(file())).isEqualTo(size - RECORD);
      c.embedDocuments(texts);
      assertThat(counting.texts).isEqualTo(1);
    }
  }

  @Test
  void open_zeroedTailOfSeveralRecords_allCutOff() throws IOException {
    fill(texts(5));
    long size = Files.size(file());
    try (RandomAccessFile f = new RandomAccessFile(file().toFile(), "rw")) {
      f.seek(size - 3L * RECORD);
      f.write(new byte[3 * RECORD]);
    }

    try (CachingEmbeddingProvider c =
        CachingEmbeddingProvider.open(new CountingProvider(), file())) {
      assertThat(c.opened()).isEqualTo(new CachingEmbeddingProvider.Opened(2, 0, 3L * RECORD));
    }
  }

  @Test
  void embed_recordDamagedAfterOpen_reembeddedNotReturned() throws IOException {
    List<String> texts = texts(2);
    fill(texts);
    CountingProvider counting = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(counting, file())) {
      flipByte(Files.size(file()) - RECORD + 40);

      List<float[]> out = c.embedDocuments(texts);

      assertThat(counting.texts).isEqualTo(1);
      assertThat(out.get(1)).containsExactly(HASHING.embed(texts.get(1)));
    }
  }

  @Test
  void open_fileOfAnotherModel_refusedNamingBoth() {
    fill(texts(1));
    CountingProvider other = new CountingProvider(HASHING, "other-model");

    assertThatThrownBy(() -> CachingEmbeddingProvider.open(other, file()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("caches hashing-384-v1 (384 dimensions), not other-model");
  }

  @Test
  void open_newerFormatVersion_refusedByVersion() throws IOException {
    fill(texts(1));
    try (RandomAccessFile f = new RandomAccessFile(file().toFile(), "rw")) {
      f.seek(8);
      f.writeInt(2);
    }

    assertThatThrownBy(() -> CachingEmbeddingProvider.open(new CountingProvider(), file()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("format version 2; this Loci reads version 1");
  }

  @Test
  void open_notACacheFile_refused() throws IOException {
    Files.createDirectories(file().getParent());
    Files.writeString(file(), "hello, world", StandardCharsets.UTF_8);

    assertThatThrownBy(() -> CachingEmbeddingProvider.open(new CountingProvider(), file()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("not an embedding cache");
  }

  @Test
  void open_damagedHeader_refused() throws IOException {
    fill(texts(1));
    flipByte(20);

    assertThatThrownBy(() -> CachingEmbeddingProvider.open(new CountingProvider(), file()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("damaged embedding cache header");
  }

  @Test
  void embedQuery_notCached() {
    CountingProvider counting = new CountingProvider();
    try (CachingEmbeddingProvider c = CachingEmbeddingProvider.open(counting, file())) {
      c.embedQuery("question");
      c.embedQuery("question");

      assertThat(counting.calls).isEqualTo(2);
      assertThat(c.size()).isZero();
    }
  }

  @Test
  void embed_afterClose_refused() {
    CachingEmbeddingProvider c = CachingEmbeddingProvider.open(new CountingProvider(), file());
    c.close();
    c.close();

    assertThatThrownBy(() -> c.embedDocuments(List.of("new text")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  private void flipByte(long at) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file().toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x40);
    }
  }
}
