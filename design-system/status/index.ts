export { StatusBadge, StatusMessage, type StatusBadgeProps, type StatusMessageProps, type StatusTone } from './status.tsx'
