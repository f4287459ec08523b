/**
 * The roomStatusCount answer for a scope: the rooms, then the rooms at each status. Declared
 * without imports so the status board (board/src/state.ts) shares it.
 */
export interface StatusCounts {
  TotalRooms: number;
  CriticalStatus: number;
  MajorStatus: number;
  MinorStatus: number;
  InfoStatus: number;
  OKStatus: number;
}
