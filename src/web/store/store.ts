import { useStore } from "zustand";
import { createStore, type StateCreator } from "zustand/vanilla";
import { type ClientFrame, DEFAULT_SETTINGS, type ServerFrame } from "../../protocol/index.ts";
import { applyServerFrame } from "./applyServerFrame.ts";
import { EMPTY_OUTBOX } from "./outbox.ts";
import type {
  ConnectionSlice,
  InboxSlice,
  SessionsSlice,
  SettingsSlice,
  TranscriptsSlice,
  UiSlice,
  WebData,
} from "./types.ts";

export interface FrameActions {
  /** Applies one validated server frame; returns the frames to send in answer. */
  applyFrame(frame: ServerFrame, receivedAt: number): ClientFrame[];
}

export type AppState = ConnectionSlice &
  SessionsSlice &
  TranscriptsSlice &
  SettingsSlice &
  UiSlice &
  InboxSlice &
  FrameActions;

type Slice<T> = StateCreator<AppState, [], [], T>;

const createConnectionSlice: Slice<ConnectionSlice> = (set) => ({
  connection: { status: "connecting" },
  clockOffsetMs: 0,
  lastError: null,
  storage: { state: "ok" },
  outbox: EMPTY_OUTBOX,
  timings: null,
  // R3: what the store was doing is the server's to say again once the link is back.
  setConnectionStatus: (connection) =>
    set(
      connection.status === "reconnecting" || connection.status === "closed"
        ? { connection, storage: { state: "ok" } }
        : { connection },
    ),
  dismissError: () => set({ lastError: null }),
});

const createSessionsSlice: Slice<SessionsSlice> = (set) => ({
  sessions: {},
  models: [],
  selectedSessionId: null,
  awaitingCreatedSession: false,
  selectSession: (selectedSessionId) => set({ selectedSessionId, page: "session" }),
  expectCreatedSession: () => set({ awaitingCreatedSession: true }),
});

const createTranscriptsSlice: Slice<TranscriptsSlice> = (set) => ({
  views: {},
  receipts: {},
  markLoadingEarlier: (sessionId) =>
    set((state) => {
      const view = state.views[sessionId];
      return view
        ? { views: { ...state.views, [sessionId]: { ...view, loadingEarlier: true } } }
        : {};
    }),
});

const createSettingsSlice: Slice<SettingsSlice> = () => ({ settings: DEFAULT_SETTINGS });

const createUiSlice: Slice<UiSlice> = (set) => ({
  page: "session",
  showPage: (page) => set({ page }),
});

const createInboxSlice: Slice<InboxSlice> = () => ({ inbox: {} });

const createFrameActions: Slice<FrameActions> = (set, get) => ({
  applyFrame: (frame, receivedAt) => {
    const { state, outgoing } = applyServerFrame(get(), frame, receivedAt);
    set(state, true);
    return outgoing;
  },
});

function createAppState(...args: Parameters<Slice<AppState>>): AppState {
  return {
    ...createConnectionSlice(...args),
    ...createSessionsSlice(...args),
    ...createTranscriptsSlice(...args),
    ...createSettingsSlice(...args),
    ...createUiSlice(...args),
    ...createInboxSlice(...args),
    ...createFrameActions(...args),
  };
}

export const appStore = createStore<AppState>()(createAppState);
const initialState = appStore.getState();

/** Puts the store back to its first state; tests call it between cases. */
export function resetStore(overrides: Partial<WebData> = {}): void {
  appStore.setState({ ...initialState, ...overrides }, true);
}

/** Always pass a selector: a bare subscription would re-render on every frame. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(appStore, selector);
}
