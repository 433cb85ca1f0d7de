/**
 * Loci as LangChain4j's memory: {@link dev.loci.langchain4j.LociChatMemoryStore} keeps each chat
 * memory as a chain of versioned traces, and {@link dev.loci.langchain4j.LociContentRetriever}
 * answers retrieval with Loci's recall, each piece of content carrying its score and evidence path.
 * Both work over any {@link dev.loci.client.LociApi}: an embedded instance or a remote server.
 */
package dev.loci.langchain4j;
