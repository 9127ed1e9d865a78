import { createContext, type ReactNode, useContext } from "react";
import type { WebClient } from "./WebClient.ts";

const ClientContext = createContext<WebClient | null>(null);

export function ClientProvider({ client, children }: { client: WebClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useClient(): WebClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error("useClient needs a ClientProvider above it");
  return client;
}
