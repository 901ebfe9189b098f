import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';

/** What a graph node shows: the entity in words, its state, and whether it is selected or in the blast radius. */
type EntityNodeData = {
  name: string;
  where: string;
  state: string;
  role: 'selected' | 'blast' | 'none';
};

export type EntityNodeType = Node<EntityNodeData, 'entity'>;

/**
 * A graph node: coloured by state and with the state written in it (never colour alone); the
 * selected entity and its blast radius carry data attributes and a written mark as well.
 */
export function EntityNode({ data }: NodeProps<EntityNodeType>) {
  return (
    <div
      className={`graph-node state-${data.state} graph-${data.role}`}
      data-state={data.state}
      data-blast={data.role === 'blast' ? 'true' : undefined}
      data-selected-entity={data.role === 'selected' ? 'true' : undefined}
    >
      <Handle type="source" position={Position.Top} isConnectable={false} />
      <strong>{data.name}</strong>
      <span className="graph-node-where">{data.where}</span>
      <span>
        {data.state}
        {data.role === 'blast' ? ' · affected' : data.role === 'selected' ? ' · selected' : ''}
      </span>
      <Handle type="target" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}
