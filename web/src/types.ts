// The view the server sends: its types are generated from bot/web/contract.py (web/src/contract.ts). The page
// reads it and decides no rule.
export type {
  Acted,
  Config,
  Action,
  ApiError,
  Card,
  LiveFrame,
  LogLine,
  Me,
  Move,
  Offered,
  Pending,
  Player,
  ScorePart,
  Session,
  Ticket,
  View,
} from "./contract";
