package dev.loci.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.injector.DefaultContentInjector;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.loci.Namespace;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.client.Conversations;
import dev.loci.client.LociApi;
import dev.loci.client.TestDocuments;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A real LangChain4j {@code AiServices} assistant over Loci, with a scripted chat model that keeps
 * every prompt: what reaches the prompt (recalled content with its evidence path, the earlier turns
 * of the same memory id and no other), and what Loci keeps (a revision chain per memory id).
 * Subclasses run it over an embedded instance and over a server.
 */
abstract class AssistantContract {
  static final Namespace CHAT = Namespace.of("acme.chat");
  static final Namespace DOCS = Namespace.of("acme.docs");

  /** The API under test. */
  abstract LociApi api();

  interface Assistant {
    @dev.langchain4j.service.SystemMessage("You are the on-call helper.")
    String chat(@MemoryId String session, @dev.langchain4j.service.UserMessage String message);
  }

  private Assistant assistant(ScriptedChatModel model, LociChatMemoryStore store) {
    LociContentRetriever retriever =
        LociContentRetriever.builder(api(), DOCS).mode(RecallMode.HYBRID).k(2).build();
    return AiServices.builder(Assistant.class)
        .chatModel(model)
        .chatMemoryProvider(
            id ->
                MessageWindowChatMemory.builder()
                    .id(id)
                    .maxMessages(20)
                    .chatMemoryStore(store)
                    .build())
        .retrievalAugmentor(
            DefaultRetrievalAugmentor.builder()
                .contentRetriever(retriever)
                .contentInjector(
                    DefaultContentInjector.builder()
                        .metadataKeysToInclude(LociContentRetriever.METADATA_KEYS)
                        .build())
                .build())
        .build();
  }

  private void ingestRunbook() {
    api().ingest(DOCS, TestDocuments.PACK, List.of(TestDocuments.runbook()));
  }

  @Test
  void assistant_promptCarriesRecalledContentWithPathAndEarlierTurns() {
    ingestRunbook();
    ScriptedChatModel model = new ScriptedChatModel("Run the revert pipeline.", "30 minutes.");
    LociChatMemoryStore store = LociChatMemoryStore.of(api(), CHAT);
    Assistant assistant = assistant(model, store);

    assertThat(assistant.chat("s1", "How do I roll back a payments deploy?"))
        .isEqualTo("Run the revert pipeline.");
    assertThat(assistant.chat("s1", "And how long is the rollback window?"))
        .isEqualTo("30 minutes.");

    List<ChatMessage> first = model.prompts().get(0);
    assertThat(first.get(0)).isInstanceOf(SystemMessage.class);
    String augmented = ((UserMessage) first.get(first.size() - 1)).singleText();
    assertThat(augmented)
        .startsWith("How do I roll back a payments deploy?")
        .contains("run the revert pipeline and page the on-call")
        .contains(LociContentRetriever.PATH + ": seed ")
        .contains(LociContentRetriever.EVIDENCE + ": deploy.md § Rollback");

    List<ChatMessage> second = model.prompts().get(1);
    assertThat(second).hasSize(4); // system, first question (as augmented), first answer, now
    assertThat(((UserMessage) second.get(1)).singleText())
        .startsWith("How do I roll back a payments deploy?");
    assertThat(((AiMessage) second.get(2)).text()).isEqualTo("Run the revert pipeline.");
  }

  @Test
  void memoryIds_keepTheirOwnTurns_andSurviveANewStore() {
    ingestRunbook();
    ScriptedChatModel model = new ScriptedChatModel("a1", "b1", "a2");
    Assistant assistant = assistant(model, LociChatMemoryStore.of(api(), CHAT));
    assistant.chat("alice", "Can we deploy on Friday evening?");
    assistant.chat("bob", "Who approves a Friday deploy?");

    // a new store and assistant over the same Loci: Alice's turns come back, Bob's do not
    Assistant again = assistant(model, LociChatMemoryStore.of(api(), CHAT));
    again.chat("alice", "Remind me what I asked.");
    List<ChatMessage> third = model.prompts().get(2);
    assertThat(third).extracting(ChatMessage::type).hasSize(4);
    assertThat(((UserMessage) third.get(1)).singleText())
        .startsWith("Can we deploy on Friday evening?");
    assertThat(third.toString()).doesNotContain("Who approves");

    assertThat(LociChatMemoryStore.of(api(), CHAT).memoryIds())
        .containsExactlyInAnyOrder("alice", "bob");
  }

  @Test
  void updates_areVersionsOfOneChain_andDeleteRetiresWithoutErasing() {
    LociChatMemoryStore store = LociChatMemoryStore.of(api(), CHAT);
    store.updateMessages("m", List.of(UserMessage.from("one")));
    store.updateMessages("m", List.of(UserMessage.from("one"), AiMessage.from("two")));

    assertThat(store.getMessages("m"))
        .containsExactly(UserMessage.from("one"), AiMessage.from("two"));
    List<Trace> live =
        api().searchTraces(TraceQuery.in(CHAT).tag(Conversations.TAG + ":m").build()).items();
    assertThat(live).hasSize(1); // the first version was retired when the second was written
    assertThat(live.get(0).predecessorUid()).isPresent();

    store.deleteMessages("m");
    assertThat(store.getMessages("m")).isEmpty();
    Trace head = api().trace(CHAT, live.get(0).uid());
    assertThat(head.retired()).isTrue();
    assertThat(head.content()).contains("two");
  }

  @Test
  void retriever_givesScoreAndPathAsMetadata() {
    ingestRunbook();
    List<Content> contents =
        LociContentRetriever.builder(api(), DOCS)
            .k(3)
            .build()
            .retrieve(Query.from("release captain approval on Fridays"));

    var recalled =
        api()
            .recall(
                DOCS,
                RecallQuery.builder("release captain approval on Fridays", RecallMode.HYBRID)
                    .k(3)
                    .build());
    assertThat(contents).hasSize(recalled.items().size()).isNotEmpty();
    Content best = contents.get(0);
    assertThat(best.textSegment().text()).contains("release captain");
    assertThat(best.metadata().get(ContentMetadata.SCORE))
        .isEqualTo(recalled.items().get(0).score());
    assertThat(best.textSegment().metadata().getString(LociContentRetriever.NODE_ID))
        .isEqualTo(recalled.items().get(0).node().id());
    assertThat(best.textSegment().metadata().getString(LociContentRetriever.PATH))
        .isEqualTo(recalled.items().get(0).path().describe());
    assertThat(best.textSegment().metadata().getString(LociContentRetriever.EVIDENCE))
        .contains("deploy.md § Freeze");
  }

  @Test
  void retriever_minScoreLeavesOutWeakItems_andBadSettingsAreRefused() {
    ingestRunbook();
    assertThat(
            LociContentRetriever.builder(api(), DOCS)
                .minScore(1e9)
                .build()
                .retrieve(Query.from("rollback window")))
        .isEmpty();
    assertThatThrownBy(() -> LociContentRetriever.builder(api(), DOCS).k(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k must be");
    assertThatThrownBy(() -> LociChatMemoryStore.of(api(), CHAT).getMessages(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("conversation id");
  }
}
